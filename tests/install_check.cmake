# CTest Install.LaysOutEveryFile: `cmake --install BUILD_DIR --prefix` a fresh folder, then checks that
# the executable runs and the man page, README, license and docs are where GNUInstallDirs puts them.
execute_process(COMMAND mktemp -d OUTPUT_VARIABLE prefix OUTPUT_STRIP_TRAILING_WHITESPACE COMMAND_ERROR_IS_FATAL ANY)
execute_process(COMMAND ${CMAKE_COMMAND} --install "${BUILD_DIR}" --prefix "${prefix}"
                RESULT_VARIABLE result OUTPUT_QUIET)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "cmake --install failed: ${result}")
endif()
set(missing "")
foreach(file bin/anvilrt share/man/man1/anvilrt.1 share/doc/anvilrt/README.md share/doc/anvilrt/LICENSE
             share/doc/anvilrt/design.md)
  if(NOT EXISTS "${prefix}/${file}")
    list(APPEND missing "${file}")
  endif()
endforeach()
execute_process(COMMAND "${prefix}/bin/anvilrt" --version OUTPUT_VARIABLE version RESULT_VARIABLE result)
file(REMOVE_RECURSE "${prefix}")
if(missing)
  message(FATAL_ERROR "not installed: ${missing}")
endif()
if(NOT result EQUAL 0 OR NOT version MATCHES "^anvilrt [0-9]")
  message(FATAL_ERROR "the installed anvilrt --version failed: ${result} ${version}")
endif()
