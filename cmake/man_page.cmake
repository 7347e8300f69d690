# The man page: TEMPLATE (docs/anvilrt.1.in) with @ANVILRT_COMMANDS@ replaced by what `ANVILRT help --roff`
# prints (the overview and every command's --help, as roff: cli/man_page.hpp), written to OUT.
# Run by the build (CMakeLists.txt) with -DANVILRT= -DTEMPLATE= -DOUT= -DPROJECT_VERSION= and, when
# cross-compiling, -DEMULATOR= (the command that runs ANVILRT: Wine for the Windows build).
execute_process(COMMAND ${EMULATOR} "${ANVILRT}" help --roff OUTPUT_VARIABLE ANVILRT_COMMANDS RESULT_VARIABLE result)
# A Windows console's text mode ends lines with CR LF; the man page is a Unix text file.
string(REPLACE "\r\n" "\n" ANVILRT_COMMANDS "${ANVILRT_COMMANDS}")
if(NOT result EQUAL 0 OR ANVILRT_COMMANDS STREQUAL "")
  message(FATAL_ERROR "${ANVILRT} help --roff failed: ${result}")
endif()
configure_file("${TEMPLATE}" "${OUT}" @ONLY)
