# Optional outputs' dependencies (included by the top CMakeLists.txt).
# Each one missing turns off only its own feature, with a message.
#   libtraceevent  tracepoint fields in script and json
#   protobuf-c + protoc-c + zlib   readperf pprof
#   capstone       readperf annotate (disassembly; headers, dlopen'ed at run time)
#   sqlite3        readperf sqlite
#   libpq + libcrypto  readperf postgres (headers; dlopen'ed at run time)
#
# The libraries only one command calls are not linked but loaded with
# dlopen when its output starts (lib/common/dlload.c), by the SONAME of
# those found here (cmake/soname.cmake): linked, they are mapped and
# relocated at every start of every command (libpq and the ~20 libraries
# it needs ~3.5 ms, capstone ~1 ms).  The build needs their headers only;
# neither the library nor the command names them as DT_NEEDED
# (tests/install/run_startup_libs.sh).
include(${CMAKE_CURRENT_LIST_DIR}/soname.cmake)
# dlopen is in libc since glibc 2.34; older ones (and some other libcs)
# have it in libdl.
include(CheckSymbolExists)
check_symbol_exists(dlopen dlfcn.h RP_HAVE_DLOPEN_IN_LIBC)
if(NOT RP_HAVE_DLOPEN_IN_LIBC)
  set(RP_DL_LIBS ${CMAKE_DL_LIBS})
  target_link_libraries(readperf PRIVATE ${RP_DL_LIBS})
endif()

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

# readperf annotate: capstone, loaded when an annotate output starts
# (lib/outputs/disasm.c); the headers only at build time.
pkg_check_modules(CAPSTONE capstone)
if(CAPSTONE_FOUND)
  rp_soname(RP_CAPSTONE_SONAME RP_CAPSTONE_PACKAGE capstone "${CAPSTONE_LINK_LIBRARIES}"
            libcapstone.so.4 libcapstone4)
  message(STATUS "readperf annotate loads ${RP_CAPSTONE_SONAME} (${RP_CAPSTONE_PACKAGE}) "
                 "when it runs")
  target_compile_definitions(readperf PRIVATE RP_HAVE_CAPSTONE=1
    RP_CAPSTONE_SONAME="${RP_CAPSTONE_SONAME}" RP_CAPSTONE_PACKAGE="${RP_CAPSTONE_PACKAGE}")
  # The headers only: compiled against, never linked.
  target_include_directories(readperf PRIVATE ${CAPSTONE_INCLUDE_DIRS})
  target_compile_options(readperf PRIVATE ${CAPSTONE_CFLAGS_OTHER})
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

# readperf postgres: libpq (COPY) and libcrypto (the recordings' SHA-256),
# loaded with dlopen when an export starts (lib/outputs/pqload.c); the
# headers only at build time (libpq-dev, libssl-dev).
pkg_check_modules(LIBPQ libpq)
pkg_check_modules(LIBCRYPTO libcrypto)
if(LIBPQ_FOUND AND LIBCRYPTO_FOUND)
  include(CheckIncludeFile)
  set(CMAKE_REQUIRED_INCLUDES ${LIBPQ_INCLUDE_DIRS} ${LIBCRYPTO_INCLUDE_DIRS})
  set(CMAKE_REQUIRED_QUIET ON)
  check_include_file(libpq-fe.h RP_HAVE_LIBPQ_FE_H)
  check_include_file(openssl/evp.h RP_HAVE_OPENSSL_EVP_H)
  unset(CMAKE_REQUIRED_INCLUDES)
  unset(CMAKE_REQUIRED_QUIET)
endif()
if(LIBPQ_FOUND AND LIBCRYPTO_FOUND AND RP_HAVE_LIBPQ_FE_H AND RP_HAVE_OPENSSL_EVP_H)
  rp_soname(RP_LIBPQ_SONAME RP_LIBPQ_PACKAGE pq "${LIBPQ_LINK_LIBRARIES}" libpq.so.5 libpq5)
  rp_soname(RP_LIBCRYPTO_SONAME RP_LIBCRYPTO_PACKAGE crypto "${LIBCRYPTO_LINK_LIBRARIES}"
            libcrypto.so.3 libssl3)
  message(STATUS "readperf postgres loads ${RP_LIBPQ_SONAME} (${RP_LIBPQ_PACKAGE}) and "
                 "${RP_LIBCRYPTO_SONAME} (${RP_LIBCRYPTO_PACKAGE}) when it runs")
  target_compile_definitions(readperf PRIVATE RP_HAVE_POSTGRES=1
    RP_LIBPQ_SONAME="${RP_LIBPQ_SONAME}" RP_LIBPQ_PACKAGE="${RP_LIBPQ_PACKAGE}"
    RP_LIBCRYPTO_SONAME="${RP_LIBCRYPTO_SONAME}" RP_LIBCRYPTO_PACKAGE="${RP_LIBCRYPTO_PACKAGE}")
  # The headers only: compiled against, never linked.
  target_include_directories(readperf PRIVATE ${LIBPQ_INCLUDE_DIRS} ${LIBCRYPTO_INCLUDE_DIRS})
  target_compile_options(readperf PRIVATE ${LIBPQ_CFLAGS_OTHER} ${LIBCRYPTO_CFLAGS_OTHER})
else()
  message(WARNING "libpq or libcrypto not found (apt-get install libpq-dev libssl-dev): "
                  "readperf postgres is not available")
endif()
