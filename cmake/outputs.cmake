# Optional outputs' dependencies (included by the top CMakeLists.txt).
# Each one missing turns off only its own feature, with a message.
#   libtraceevent  tracepoint fields in script and json
#   protobuf-c + protoc-c + zlib   readperf pprof
#   capstone       readperf annotate (disassembly)
#   sqlite3        readperf sqlite
#   libpq + libcrypto  readperf postgres

pkg_check_modules(LIBTRACEEVENT IMPORTED_TARGET libtraceevent)
if(LIBTRACEEVENT_FOUND)
  target_compile_definitions(readperf PRIVATE RP_HAVE_TRACEEVENT=1)
  target_link_libraries(readperf PRIVATE PkgConfig::LIBTRACEEVENT)
else()
  message(WARNING "libtraceevent not found (apt-get install libtraceevent-dev): "
                  "script and json print no tracepoint fields")
endif()

pkg_check_modules(LIBPROTOBUF_C IMPORTED_TARGET libprotobuf-c)
pkg_check_modules(ZLIB IMPORTED_TARGET zlib)
find_program(PROTOC_C NAMES protoc-c)
if(LIBPROTOBUF_C_FOUND AND ZLIB_FOUND AND PROTOC_C)
  set(RP_PPROF_GEN ${CMAKE_BINARY_DIR}/generated)
  file(MAKE_DIRECTORY ${RP_PPROF_GEN})
  add_custom_command(
    OUTPUT ${RP_PPROF_GEN}/profile.pb-c.c ${RP_PPROF_GEN}/profile.pb-c.h
    COMMAND ${PROTOC_C} --c_out=${RP_PPROF_GEN} --proto_path=${CMAKE_SOURCE_DIR}/lib/outputs
            ${CMAKE_SOURCE_DIR}/lib/outputs/profile.proto
    DEPENDS ${CMAKE_SOURCE_DIR}/lib/outputs/profile.proto
    COMMENT "protoc-c profile.proto")
  target_sources(readperf PRIVATE ${RP_PPROF_GEN}/profile.pb-c.c)
  # PUBLIC so that tests/unit/test_pprof.c can decode what it wrote.
  target_include_directories(readperf PUBLIC $<BUILD_INTERFACE:${RP_PPROF_GEN}>)
  target_compile_definitions(readperf PRIVATE RP_HAVE_PPROF=1)
  target_link_libraries(readperf PRIVATE PkgConfig::LIBPROTOBUF_C PkgConfig::ZLIB)
  # The generated file is not ours to warn about.
  set_source_files_properties(${RP_PPROF_GEN}/profile.pb-c.c PROPERTIES
                              COMPILE_OPTIONS "-Wno-missing-prototypes;-Wno-error")
else()
  message(WARNING "protobuf-c, protoc-c or zlib not found (apt-get install "
                  "libprotobuf-c-dev protobuf-c-compiler zlib1g-dev): "
                  "readperf pprof is not available")
endif()

pkg_check_modules(CAPSTONE IMPORTED_TARGET capstone)
if(CAPSTONE_FOUND)
  target_compile_definitions(readperf PRIVATE RP_HAVE_CAPSTONE=1)
  target_link_libraries(readperf PRIVATE PkgConfig::CAPSTONE)
else()
  message(WARNING "capstone not found (apt-get install libcapstone-dev): "
                  "readperf annotate is not available")
endif()

# readperf html: the page's files (web/) built into the library as byte
# arrays; the data is deflated with zlib.
set(RP_WEB_FILES ${CMAKE_SOURCE_DIR}/web/report.html ${CMAKE_SOURCE_DIR}/web/report.css
                 ${CMAKE_SOURCE_DIR}/web/report.js)
set(RP_WEB_C ${CMAKE_BINARY_DIR}/generated/rp_web.c)
add_custom_command(
  OUTPUT ${RP_WEB_C}
  COMMAND ${CMAKE_COMMAND} -DOUT=${RP_WEB_C}
          "-DNAMES=rp_web_report_html\;rp_web_report_css\;rp_web_report_js"
          "-DFILES=${CMAKE_SOURCE_DIR}/web/report.html\;${CMAKE_SOURCE_DIR}/web/report.css\;${CMAKE_SOURCE_DIR}/web/report.js"
          -P ${CMAKE_SOURCE_DIR}/cmake/embed.cmake
  DEPENDS ${RP_WEB_FILES} ${CMAKE_SOURCE_DIR}/cmake/embed.cmake
  COMMENT "embedding web/report.{html,css,js}")
target_sources(readperf PRIVATE ${RP_WEB_C})
if(ZLIB_FOUND)
  target_compile_definitions(readperf PRIVATE RP_HAVE_ZLIB=1)
  target_link_libraries(readperf PRIVATE PkgConfig::ZLIB)
else()
  message(WARNING "zlib not found (apt-get install zlib1g-dev): readperf html is not available")
endif()

# readperf sqlite: SQLite's C library.
pkg_check_modules(SQLITE3 IMPORTED_TARGET sqlite3)
if(SQLITE3_FOUND)
  target_compile_definitions(readperf PRIVATE RP_HAVE_SQLITE=1)
  target_link_libraries(readperf PRIVATE PkgConfig::SQLITE3)
else()
  message(WARNING "sqlite3 not found (apt-get install libsqlite3-dev): "
                  "readperf sqlite is not available")
endif()

# readperf postgres: libpq (COPY) and libcrypto (the recordings' SHA-256).
pkg_check_modules(LIBPQ IMPORTED_TARGET libpq)
pkg_check_modules(LIBCRYPTO IMPORTED_TARGET libcrypto)
if(LIBPQ_FOUND AND LIBCRYPTO_FOUND)
  target_compile_definitions(readperf PRIVATE RP_HAVE_POSTGRES=1)
  target_link_libraries(readperf PRIVATE PkgConfig::LIBPQ PkgConfig::LIBCRYPTO)
else()
  message(WARNING "libpq or libcrypto not found (apt-get install libpq-dev libssl-dev): "
                  "readperf postgres is not available")
endif()
