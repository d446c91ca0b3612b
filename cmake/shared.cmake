# libreadperf.so.MAJOR: the static archive `readperf` (position-independent,
# hidden visibility) linked whole into a shared object that exports only
# what lib/readperf.map names, with SONAME libreadperf.so.MAJOR.  Included by
# the top CMakeLists.txt once every source and dependency of `readperf` is
# known.  The command and the tests link the archive (the unit tests call
# internal functions); tests/install/ checks the shared library.
set(RP_VERSION_SCRIPT ${CMAKE_SOURCE_DIR}/lib/readperf.map)

# The version script is its only source of its own: nothing to compile, but
# a target needs one (LINK_DEPENDS relinks when the script changes).
add_library(readperf-shared SHARED ${RP_VERSION_SCRIPT})
set_target_properties(readperf-shared PROPERTIES
  OUTPUT_NAME readperf
  VERSION ${PROJECT_VERSION}
  SOVERSION ${PROJECT_VERSION_MAJOR}
  LINKER_LANGUAGE C
  LINK_DEPENDS ${RP_VERSION_SCRIPT})
target_link_libraries(readperf-shared PRIVATE "$<LINK_LIBRARY:WHOLE_ARCHIVE,readperf>")
target_include_directories(readperf-shared INTERFACE ${CMAKE_SOURCE_DIR}/include)
target_link_options(readperf-shared PRIVATE "LINKER:--version-script=${RP_VERSION_SCRIPT}")
# Every dependency named at link time (DT_NEEDED), none left to the
# program; the sanitizers' and libFuzzer's runtimes are the program's.
if(NOT RP_SANITIZE AND NOT RP_FUZZ)
  target_link_options(readperf-shared PRIVATE "LINKER:--no-undefined")
endif()
