# rp_soname(SONAME_VAR PACKAGE_VAR NAME LINK_LIBRARIES FALLBACK_SONAME FALLBACK_PACKAGE)
#
# The SONAME of the shared library libNAME that pkg-config found (its
# full path among LINK_LIBRARIES, pkg_check_modules' <PREFIX>_LINK_LIBRARIES;
# else find_library's), as `objdump -p` prints it: the name the linker
# would have recorded as DT_NEEDED, hence the one to dlopen.  PACKAGE_VAR:
# the Debian package that holds the library file (dpkg-query -S), for the
# message that asks for it.  Where either cannot be read (no objdump, a
# linker script, no dpkg), the fallbacks, with a message.
#
# file(READ_ELF) reads no SONAME, and file(GET_RUNTIME_DEPENDENCIES)
# resolves a built binary's dependencies, not a library's own name.
function(rp_soname soname_var package_var name link_libraries fallback_soname fallback_package)
  set(lib "")
  foreach(l IN LISTS link_libraries)
    if(l MATCHES "/lib${name}\\.so(\\.[0-9.]+)?$")
      set(lib "${l}")
      break()
    endif()
  endforeach()
  if(NOT lib)
    find_library(RP_LIB_${name} NAMES ${name})
    set(lib "${RP_LIB_${name}}")
  endif()

  set(soname "")
  if(lib AND CMAKE_OBJDUMP)
    execute_process(COMMAND ${CMAKE_OBJDUMP} -p "${lib}"
                    OUTPUT_VARIABLE dump ERROR_QUIET RESULT_VARIABLE rc)
    if(rc EQUAL 0 AND dump MATCHES "\n *SONAME +([^ \n]+)")
      set(soname "${CMAKE_MATCH_1}")
    endif()
  endif()
  if(NOT soname)
    message(WARNING "cannot read the SONAME of lib${name} ('${lib}', objdump "
                    "'${CMAKE_OBJDUMP}'): readperf will load ${fallback_soname}")
    set(soname "${fallback_soname}")
  endif()

  set(package "")
  find_program(RP_DPKG_QUERY dpkg-query)
  if(lib AND RP_DPKG_QUERY)
    file(REAL_PATH "${lib}" real)
    execute_process(COMMAND ${RP_DPKG_QUERY} -S "${real}"
                    OUTPUT_VARIABLE owner ERROR_QUIET RESULT_VARIABLE rc)
    # "libpq5:amd64: /usr/lib/x86_64-linux-gnu/libpq.so.5.15"
    if(rc EQUAL 0 AND owner MATCHES "^([^:, ]+)")
      set(package "${CMAKE_MATCH_1}")
    endif()
  endif()
  if(NOT package)
    set(package "${fallback_package}")
  endif()

  set(${soname_var} "${soname}" PARENT_SCOPE)
  set(${package_var} "${package}" PARENT_SCOPE)
endfunction()
