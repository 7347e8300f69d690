#!/bin/sh
# The Windows build's cross-compiling emulator (cmake/mingw-w64-x86_64.cmake): runs a Windows program under
# Debian's wine64 in the Wine prefix WINEPREFIX (the build folder's own, not ~/.wine):
#   cmake/windows/wine.sh WINEPREFIX PROGRAM.exe [ARG...]
# A wineserver kept for 60 seconds after its last program spares each test's program Wine's start (about
# 5 seconds each); the first start of a prefix creates it (about 40 seconds).
export WINEPREFIX="$1" WINEDEBUG=-all
shift
mkdir -p "$WINEPREFIX"
/usr/lib/wine/wineserver -p60 2>/dev/null || true
exec /usr/lib/wine/wine64 "$@"
