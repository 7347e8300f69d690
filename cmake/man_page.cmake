# The man page: TEMPLATE (docs/anvilrt.1.in) with @ANVILRT_COMMANDS@ replaced by what `ANVILRT help --roff`
# prints (the overview and every command's --help, as roff: cli/man_page.hpp), written to OUT.
# Run by the build (CMakeLists.txt) with -DANVILRT= -DTEMPLATE= -DOUT= -DPROJECT_VERSION=.
execute_process(COMMAND "${ANVILRT}" help --roff OUTPUT_VARIABLE ANVILRT_COMMANDS RESULT_VARIABLE result)
if(NOT result EQUAL 0 OR ANVILRT_COMMANDS STREQUAL "")
  message(FATAL_ERROR "${ANVILRT} help --roff failed: ${result}")
endif()
configure_file("${TEMPLATE}" "${OUT}" @ONLY)
