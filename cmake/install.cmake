# Install rules (GNUInstallDirs) and readperf.pc.  Included by the top
# CMakeLists.txt once the library, the shared library and the command are
# defined.
#
#   cmake --install build --prefix /usr/local      (or make install)
#
#   bin/readperf                        the command       component readperf
#   share/man/man1/readperf*.1          its man pages     (cmake/man.cmake)
#   LIBDIR/libreadperf.so.MAJOR[.m.p]   the library       component libreadperf
#   include/readperf/*.h                the API           component libreadperf-dev
#   LIBDIR/libreadperf.so, .a
#   LIBDIR/pkgconfig/readperf.pc
#
# LIBDIR is lib, or lib/<multiarch> when the prefix is /usr on Debian.

install(TARGETS readperf-cli
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR} COMPONENT readperf)
install(TARGETS readperf-shared
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT libreadperf
                NAMELINK_COMPONENT libreadperf-dev)
install(TARGETS readperf
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR} COMPONENT libreadperf-dev)
install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/readperf
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR} COMPONENT libreadperf-dev
        FILES_MATCHING PATTERN "*.h")

# readperf.pc: what a program needs to link libreadperf.a too (the
# dependencies found by this configuration; libiberty has no .pc file).
set(RP_PC_REQUIRES_PRIVATE libelf libdw)
set(RP_PC_LIBS_PRIVATE "")
if(LIBZSTD_FOUND)
  list(APPEND RP_PC_REQUIRES_PRIVATE libzstd)
endif()
if(LIBDEFLATE_FOUND)
  list(APPEND RP_PC_REQUIRES_PRIVATE libdeflate)
else()
  list(APPEND RP_PC_REQUIRES_PRIVATE zlib)
endif()
if(LIBTRACEEVENT_FOUND)
  list(APPEND RP_PC_REQUIRES_PRIVATE libtraceevent)
endif()
if(LIBPROTOBUF_C_FOUND AND ZLIB_FOUND AND PROTOC_C)
  list(APPEND RP_PC_REQUIRES_PRIVATE libprotobuf-c zlib)
endif()
if(SQLITE3_FOUND)
  list(APPEND RP_PC_REQUIRES_PRIVATE sqlite3)
endif()
# capstone, libpq and libcrypto are not linked (the annotate and postgres
# outputs dlopen them, cmake/outputs.cmake); dlopen itself is in libdl
# before glibc 2.34.
if(RP_DL_LIBS)
  foreach(l IN LISTS RP_DL_LIBS)
    list(APPEND RP_PC_LIBS_PRIVATE -l${l})
  endforeach()
endif()
if(LIBIBERTY_INCLUDE_DIR AND LIBIBERTY_LIBRARY)
  list(APPEND RP_PC_LIBS_PRIVATE -liberty)
endif()
# libm: the filters' time percentages (round()).
list(APPEND RP_PC_LIBS_PRIVATE -lm)
# The library's threads; glibc 2.34 and later need no flag, older ones do.
if(CMAKE_USE_PTHREADS_INIT)
  list(APPEND RP_PC_LIBS_PRIVATE -pthread)
endif()
list(JOIN RP_PC_REQUIRES_PRIVATE ", " RP_PC_REQUIRES_PRIVATE)
list(JOIN RP_PC_LIBS_PRIVATE " " RP_PC_LIBS_PRIVATE)
# Relative to ${prefix} where GNUInstallDirs made them relative, so that
# pkg-config --define-variable=prefix=... finds a staged (DESTDIR) tree.
foreach(d LIBDIR INCLUDEDIR)
  if(IS_ABSOLUTE "${CMAKE_INSTALL_${d}}")
    set(RP_PC_${d} "${CMAKE_INSTALL_${d}}")
  elseif(d STREQUAL "LIBDIR")
    set(RP_PC_${d} "\${exec_prefix}/${CMAKE_INSTALL_${d}}")
  else()
    set(RP_PC_${d} "\${prefix}/${CMAKE_INSTALL_${d}}")
  endif()
endforeach()
# The prefix is the one given to cmake --install (--prefix, else
# CMAKE_INSTALL_PREFIX): filled in at install time, the rest now.
set(RP_PC_PREFIX "@RP_PC_PREFIX@")
configure_file(${CMAKE_SOURCE_DIR}/lib/readperf.pc.in ${CMAKE_BINARY_DIR}/readperf.pc.in @ONLY)
install(CODE "set(RP_PC_PREFIX \"\${CMAKE_INSTALL_PREFIX}\")
  configure_file(\"${CMAKE_BINARY_DIR}/readperf.pc.in\" \"${CMAKE_BINARY_DIR}/readperf.pc\" @ONLY)"
  COMPONENT libreadperf-dev)
install(FILES ${CMAKE_BINARY_DIR}/readperf.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig COMPONENT libreadperf-dev)

include(${CMAKE_CURRENT_LIST_DIR}/man.cmake)
