# The man pages: docs/man/NAME.SECTION.scd, rendered by scdoc (Debian's
# scdoc package) into build/man/NAME.SECTION and installed into
# share/man/manSECTION.  Without scdoc nothing is rendered nor installed,
# with a warning; tests/install/run_manpages.sh checks the pages.
find_program(SCDOC scdoc)
file(GLOB RP_MAN_SOURCES CONFIGURE_DEPENDS ${CMAKE_SOURCE_DIR}/docs/man/*.scd)
if(SCDOC)
  set(RP_MAN_DIR ${CMAKE_BINARY_DIR}/man)
  file(MAKE_DIRECTORY ${RP_MAN_DIR})
  set(RP_MAN_PAGES "")
  foreach(src IN LISTS RP_MAN_SOURCES)
    get_filename_component(page ${src} NAME_WLE)      # readperf-report.1
    string(REGEX REPLACE "^.*\\.([0-9])$" "\\1" section ${page})
    add_custom_command(
      OUTPUT ${RP_MAN_DIR}/${page}
      COMMAND sh -c "\"$0\" <\"$1\" >\"$2.tmp\" && mv \"$2.tmp\" \"$2\""
              ${SCDOC} ${src} ${RP_MAN_DIR}/${page}
      DEPENDS ${src}
      COMMENT "scdoc ${page}"
      VERBATIM)
    list(APPEND RP_MAN_PAGES ${RP_MAN_DIR}/${page})
    install(FILES ${RP_MAN_DIR}/${page}
            DESTINATION ${CMAKE_INSTALL_MANDIR}/man${section} COMPONENT readperf)
  endforeach()
  add_custom_target(man ALL DEPENDS ${RP_MAN_PAGES})
else()
  message(WARNING "scdoc not found (apt-get install scdoc): the man pages "
                  "are neither built nor installed")
endif()
