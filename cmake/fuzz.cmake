# Fuzz targets and their replay driver (docs/robustness.md).
#
# Always: rp-fuzz-replay (tests/fuzz/replay.c + targets.c, any compiler)
# and the test fuzz/replay, which runs every corpus input and every past
# crash input through every target.
#
# With -DRP_FUZZ=ON and clang: one libFuzzer binary per target,
# fuzz_<target>, and the library instrumented for coverage.  Typically:
#   CC=clang cmake -S . -B build-fuzz -DRP_FUZZ=ON -DRP_SANITIZE=ON
#   cmake --build build-fuzz -j2 && tests/fuzz/fuzz_campaign.sh build-fuzz
option(RP_FUZZ "Build the libFuzzer targets (needs clang)" OFF)

set(RP_FUZZ_DIR ${CMAKE_SOURCE_DIR}/tests/fuzz)
set(RP_FUZZ_TARGETS open records pipe compressed swapped report csv dump stats
                    header script collapse json pprof filter unwind)

# The unwind target builds its perf.data with the unit tests' builder.
set(RP_FUZZ_BUILDER ${CMAKE_SOURCE_DIR}/tests/unit/builder.c)
add_executable(rp-fuzz-replay ${RP_FUZZ_DIR}/replay.c ${RP_FUZZ_DIR}/targets.c ${RP_FUZZ_BUILDER})
# (lib/: the unwind target compares the unwinder's two walks itself)
target_include_directories(rp-fuzz-replay PRIVATE ${CMAKE_SOURCE_DIR}/tests/unit
                                                  ${CMAKE_SOURCE_DIR}/lib)
target_link_libraries(rp-fuzz-replay PRIVATE readperf)
if(LIBZSTD_FOUND)
  target_compile_definitions(rp-fuzz-replay PRIVATE RP_HAVE_ZSTD=1)
  target_link_libraries(rp-fuzz-replay PRIVATE PkgConfig::LIBZSTD)
endif()
add_test(NAME fuzz/replay
         COMMAND rp-fuzz-replay ${RP_FUZZ_DIR}/corpus ${RP_FUZZ_DIR}/crashes
                 ${CMAKE_SOURCE_DIR}/tests/golden ${CMAKE_SOURCE_DIR}/tests/corpus/bad)
# libtraceevent's own leaks on damaged event formats are not ours.
set_tests_properties(fuzz/replay PROPERTIES TIMEOUT 900
  ENVIRONMENT "LSAN_OPTIONS=suppressions=${RP_FUZZ_DIR}/lsan.supp")

if(RP_FUZZ)
  if(NOT CMAKE_C_COMPILER_ID MATCHES "Clang")
    message(FATAL_ERROR "RP_FUZZ needs clang (CC=clang; apt-get install clang "
                        "libclang-rt-14-dev)")
  endif()
  target_compile_options(readperf PRIVATE -fsanitize=fuzzer-no-link)
  foreach(t ${RP_FUZZ_TARGETS})
    add_executable(fuzz_${t} ${RP_FUZZ_DIR}/fuzz_main.c ${RP_FUZZ_DIR}/targets.c
                   ${RP_FUZZ_BUILDER})
    target_include_directories(fuzz_${t} PRIVATE ${CMAKE_SOURCE_DIR}/tests/unit
                                                 ${CMAKE_SOURCE_DIR}/lib)
    target_compile_definitions(fuzz_${t} PRIVATE RP_FUZZ_TARGET="${t}")
    target_compile_options(fuzz_${t} PRIVATE -fsanitize=fuzzer)
    target_link_options(fuzz_${t} PRIVATE -fsanitize=fuzzer)
    target_link_libraries(fuzz_${t} PRIVATE readperf)
    if(LIBZSTD_FOUND)
      target_compile_definitions(fuzz_${t} PRIVATE RP_HAVE_ZSTD=1)
      target_link_libraries(fuzz_${t} PRIVATE PkgConfig::LIBZSTD)
    endif()
  endforeach()
endif()

# The command with allocation failure injection (tests/robust/alloc_wrap.c,
# run by tests/robust/run_allocfail.sh): every malloc, calloc, realloc and
# strdup of the library and the command goes through the shim.
file(GLOB RP_ALLOC_CLI_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/tools/readperf/*.c)
add_executable(rp-alloc-readperf ${RP_ALLOC_CLI_SOURCES}
               ${CMAKE_SOURCE_DIR}/tests/robust/alloc_wrap.c)
target_link_libraries(rp-alloc-readperf PRIVATE readperf)
target_link_options(rp-alloc-readperf PRIVATE
                    -Wl,--wrap=malloc,--wrap=calloc,--wrap=realloc,--wrap=strdup -rdynamic)
