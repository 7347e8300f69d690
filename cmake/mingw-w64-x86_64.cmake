# Cross-compiling for x86-64 Windows with Debian's MinGW-w64 (g++-mingw-w64-x86-64-posix: GCC 12 with the
# POSIX thread model, which std::thread and std::mutex need). Used by `./dev windows` for anvilrt itself and
# by cmake/windows/deps.sh for the libraries it builds from Debian's source packages.
#
# The libraries are looked up only in MinGW's own folder and in the prefix deps.sh fills:
# ANVILRT_WINDOWS_DEPS (a CMake or environment variable), build-windows/deps/prefix by default.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(ANVILRT_MINGW_TRIPLE x86_64-w64-mingw32)
set(CMAKE_C_COMPILER ${ANVILRT_MINGW_TRIPLE}-gcc-posix)
set(CMAKE_CXX_COMPILER ${ANVILRT_MINGW_TRIPLE}-g++-posix)
set(CMAKE_RC_COMPILER ${ANVILRT_MINGW_TRIPLE}-windres)
set(CMAKE_AR ${ANVILRT_MINGW_TRIPLE}-gcc-ar-posix CACHE FILEPATH "")
set(CMAKE_RANLIB ${ANVILRT_MINGW_TRIPLE}-gcc-ranlib-posix CACHE FILEPATH "")

if(NOT ANVILRT_WINDOWS_DEPS)
  if(DEFINED ENV{ANVILRT_WINDOWS_DEPS})
    set(ANVILRT_WINDOWS_DEPS $ENV{ANVILRT_WINDOWS_DEPS})
  else()
    get_filename_component(ANVILRT_WINDOWS_DEPS ${CMAKE_CURRENT_LIST_DIR}/../build-windows/deps/prefix ABSOLUTE)
  endif()
endif()
# try_compile projects read this file again: they get the same prefix.
list(APPEND CMAKE_TRY_COMPILE_PLATFORM_VARIABLES ANVILRT_WINDOWS_DEPS)

set(CMAKE_FIND_ROOT_PATH /usr/${ANVILRT_MINGW_TRIPLE} ${ANVILRT_WINDOWS_DEPS})
set(CMAKE_PREFIX_PATH ${ANVILRT_WINDOWS_DEPS})
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config (lzo2, libdeflate) reads the Windows libraries' .pc files only.
set(ENV{PKG_CONFIG_LIBDIR} ${ANVILRT_WINDOWS_DEPS}/lib/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")

# Boost from its static archives, found by CMake's FindBoost (deps.sh installs no BoostConfig).
set(Boost_USE_STATIC_LIBS ON)
set(Boost_NO_BOOST_CMAKE ON)

# The libraries' headers are system headers, as Debian's are in /usr/include on Linux: their own warnings
# (RapidJSON's std::iterator) are not the project's.
set(CMAKE_C_FLAGS_INIT "-isystem ${ANVILRT_WINDOWS_DEPS}/include")
set(CMAKE_CXX_FLAGS_INIT "-isystem ${ANVILRT_WINDOWS_DEPS}/include")

# Everything linked statically, the C and C++ runtimes and winpthread included: anvilrt.exe needs no DLL
# beyond Windows' own.
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static -static-libgcc -static-libstdc++")

# CTest runs the Windows executables (the tests, and the man page's rendering) under Debian's wine64, through
# cmake/windows/wine.sh, in a Wine prefix of the build folder's own so that nothing is shared with ~/.wine.
if(EXISTS /usr/lib/wine/wine64)
  set(ANVILRT_WINE64 /usr/lib/wine/wine64)
  set(CMAKE_CROSSCOMPILING_EMULATOR ${CMAKE_CURRENT_LIST_DIR}/windows/wine.sh ${CMAKE_BINARY_DIR}/wineprefix)
endif()
