#!/bin/sh
# The Windows build's cross-compiling emulator (cmake/mingw-w64-x86_64.cmake): runs a Windows program under
# Debian's wine64 in the Wine prefix WINEPREFIX (the build folder's own, not ~/.wine):
#   cmake/windows/wine.sh WINEPREFIX PROGRAM.exe [ARG...]
# A wineserver kept for 60 seconds after its last program spares each test's program Wine's start (about
# 5 seconds each); the first start of a prefix creates it (about 40 seconds).
#
# The wineserver and the prefix's own programs (services, explorer) outlive the program run here: they are
# started apart from this script's standard streams (and wineboot before the program), or they would hold
# the caller's pipes open -- CTest waits for a test's output to close, so a test whose program started the
# server would last as long as the server (forever, while other tests keep it busy). One script at a time
# does this (a lock in the prefix): a program started beside it waits for wineboot to finish.
export WINEPREFIX="$1" WINEDEBUG=-all
shift
mkdir -p "$WINEPREFIX"
exec 9>"$WINEPREFIX/.anvilrt-start.lock"
flock 9
if /usr/lib/wine/wineserver -p60 </dev/null >/dev/null 2>&1 9>&-; then
  /usr/lib/wine/wine64 wineboot.exe </dev/null >/dev/null 2>&1 9>&- || true
fi
exec 9>&-
exec /usr/lib/wine/wine64 "$@"
