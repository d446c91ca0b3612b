# Threads for rp_process()'s reader thread (-j N).  Included by the top
# CMakeLists.txt after the readperf library target is defined.
set(THREADS_PREFER_PTHREAD_FLAG ON)
find_package(Threads REQUIRED)
target_link_libraries(readperf PUBLIC Threads::Threads)
