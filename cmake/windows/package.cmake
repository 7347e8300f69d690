# The Windows build's installation and `cpack -G ZIP` (in build-windows): anvilrt-VERSION-win64.zip holds,
# in one folder, anvilrt.exe, README.md, LICENSE, docs/ (docs/*.md), the man page as text (anvilrt.txt) and
# notices/: the license of every library linked into anvilrt.exe, from the Debian source packages it was
# built from (debian/copyright, kept by cmake/windows/deps.sh) and from MinGW-w64's runtime packages.
install(TARGETS anvilrt RUNTIME DESTINATION .)
install(FILES README.md LICENSE DESTINATION .)
install(DIRECTORY docs/ DESTINATION docs FILES_MATCHING PATTERN "*.md")

# The man page rendered as plain UTF-8 text (groff, no bold or underline), for a system without man.
find_program(ANVILRT_GROFF groff REQUIRED)
add_custom_command(OUTPUT ${CMAKE_BINARY_DIR}/anvilrt.txt
  COMMAND ${ANVILRT_GROFF} -man -Tutf8 -P-cbou ${CMAKE_BINARY_DIR}/anvilrt.1 > ${CMAKE_BINARY_DIR}/anvilrt.txt
  DEPENDS ${CMAKE_BINARY_DIR}/anvilrt.1
  COMMENT "man page as text")
add_custom_target(anvilrt_man_text ALL DEPENDS ${CMAKE_BINARY_DIR}/anvilrt.txt)
install(FILES ${CMAKE_BINARY_DIR}/anvilrt.txt DESTINATION .)

# The notices of the libraries in anvilrt.exe. GoogleTest is built for the tests only; libpng and zlib are
# linked into anvilrt.exe only with Anti-Grain Geometry (the PNG map: view/CMakeLists.txt), else the tests
# alone use them.
set(not_linked googletest)
get_directory_property(map_png DIRECTORY ${CMAKE_SOURCE_DIR}/view DEFINITION AGG_FOUND)
if(NOT map_png)
  list(APPEND not_linked libpng1.6 zlib)
endif()
file(GLOB notice_folders LIST_DIRECTORIES true ${ANVILRT_WINDOWS_DEPS}/share/doc/*)
foreach(folder IN LISTS notice_folders)
  get_filename_component(source ${folder} NAME)
  if(EXISTS ${folder}/copyright AND NOT source IN_LIST not_linked)
    install(FILES ${folder}/copyright DESTINATION notices RENAME ${source}.txt)
  endif()
endforeach()
# MinGW-w64's C runtime and winpthread, and GCC's libstdc++ and libgcc (static, under the GCC Runtime
# Library Exception): the machine's own Debian packages' copyright files.
foreach(package mingw-w64-x86-64-dev gcc-mingw-w64-base)
  if(EXISTS /usr/share/doc/${package}/copyright)
    install(FILES /usr/share/doc/${package}/copyright DESTINATION notices RENAME ${package}.txt)
  else()
    message(FATAL_ERROR "/usr/share/doc/${package}/copyright is missing: the zip's notices need it")
  endif()
endforeach()

# cpack installs what the build made (./dev windows builds everything first), without building the tests.
set(CMAKE_SKIP_INSTALL_ALL_DEPENDENCY ON)
set(CPACK_PACKAGE_NAME anvilrt)
set(CPACK_PACKAGE_VENDOR "the anvilrt authors")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "${PROJECT_DESCRIPTION}")
set(CPACK_SYSTEM_NAME win64)
set(CPACK_GENERATOR ZIP)
set(CPACK_STRIP_FILES ON)
include(CPack)

if(ANVILRT_TESTS)
  find_program(ANVILRT_OBJDUMP ${ANVILRT_MINGW_TRIPLE}-objdump REQUIRED)
  string(REPLACE ";" "," not_linked_words "${not_linked}")
  add_test(NAME Windows.PackageHoldsEveryFile
    COMMAND ${CMAKE_COMMAND} -DBUILD_DIR=${CMAKE_BINARY_DIR} -DVERSION=${PROJECT_VERSION} -DOBJDUMP=${ANVILRT_OBJDUMP}
            -DNOT_LINKED=${not_linked_words}
            -P ${CMAKE_SOURCE_DIR}/cmake/windows/package_check.cmake)
endif()
