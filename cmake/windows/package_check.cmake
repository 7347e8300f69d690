# CTest Windows.PackageHoldsEveryFile: `cpack -G ZIP` in BUILD_DIR, then the zip holds every file
# cmake/windows/package.cmake promises, and anvilrt.exe imports no DLL but Windows' own: those named below,
# which every Windows has (MinGW's runtime DLLs, libstdc++-6, libgcc_s_seh-1, libwinpthread-1, and a
# library's, zlib1 or libpng16, are not among them).
# Run with -DBUILD_DIR= -DVERSION= -DOBJDUMP= -DNOT_LINKED=.
execute_process(COMMAND cpack -G ZIP WORKING_DIRECTORY "${BUILD_DIR}" RESULT_VARIABLE result OUTPUT_QUIET)
set(zip "${BUILD_DIR}/anvilrt-${VERSION}-win64.zip")
if(NOT result EQUAL 0 OR NOT EXISTS "${zip}")
  message(FATAL_ERROR "cpack -G ZIP failed (${result}) or wrote no ${zip}")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -E tar tf "${zip}" OUTPUT_VARIABLE listing COMMAND_ERROR_IS_FATAL ANY)
set(missing "")
foreach(file anvilrt.exe README.md LICENSE anvilrt.txt docs/design.md docs/patches.md notices/lzo2.txt
             notices/libdeflate.txt notices/abseil.txt notices/boost1.74.txt notices/rapidjson.txt notices/cpp-httplib.txt
             notices/mingw-w64-x86-64-dev.txt notices/gcc-mingw-w64-base.txt)
  string(FIND "${listing}" "anvilrt-${VERSION}-win64/${file}\n" at)
  if(at EQUAL -1)
    list(APPEND missing ${file})
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "not in ${zip}: ${missing}")
endif()
# NOT_LINKED: the libraries built for the tests alone (package.cmake), comma-separated: no notice of theirs.
string(REPLACE "," ";" not_linked "${NOT_LINKED}")
foreach(source IN LISTS not_linked)
  if(listing MATCHES "notices/${source}\\.txt")
    message(FATAL_ERROR "${zip} holds the notice of ${source}, which anvilrt.exe does not link")
  endif()
endforeach()
execute_process(COMMAND "${OBJDUMP}" -p "${BUILD_DIR}/anvilrt.exe" OUTPUT_VARIABLE headers COMMAND_ERROR_IS_FATAL ANY)
string(REGEX MATCHALL "DLL Name: [^\n]+" dlls "${headers}")
# dbghelp: Abseil's symbolizer (Windows' own since XP); ws2_32: cpp-httplib's sockets.
set(windows_own advapi32 bcrypt dbghelp kernel32 msvcrt shell32 user32 ws2_32)
foreach(dll IN LISTS dlls)
  string(REGEX REPLACE "^DLL Name: (.+)\\.[dD][lL][lL]$" "\\1" name "${dll}")
  string(TOLOWER "${name}" name)
  list(FIND windows_own "${name}" known)
  if(known EQUAL -1)
    message(FATAL_ERROR "anvilrt.exe imports a DLL that is not Windows' own: ${dll}")
  endif()
endforeach()
message(STATUS "${zip}: every file; anvilrt.exe imports ${dlls}")
