#!/usr/bin/env bash
# The Windows executable under Wine against the Linux build, on the bundled corpus (tests/wine/CMakeLists.txt):
#  1. `verify` of every corpus file prints the same standard output and exits with the same status;
#  2. the modder's round trip on corpus/forge/ac2_five_forms.forge (extract, a patch of one data file, one byte
#     of another edited with dd, put, verify) gives the same extraction and the same archive, byte for byte.
# usage: linux_parity.sh EMULATOR WINEPREFIX ANVILRT_EXE LINUX_ANVILRT SOURCE_DIR WORK_DIR
# (EMULATOR WINEPREFIX: cmake/windows/wine.sh and its prefix, the build's cross-compiling emulator)
set -euo pipefail
emulator=$1 prefix=$2 exe=$3 linux=$4 source=$5 work=$6
if [ ! -x "$linux" ]; then
  echo "the Linux build's anvilrt is missing: $linux (./dev windows-test builds it)" >&2
  exit 1
fi
windows() { "$emulator" "$prefix" "$exe" "$@"; }
failures=0

# 1. verify, with the same relative paths from the source folder.
cd "$source"
for file in corpus/ac2/*.bin corpus/sws/*.bin corpus/forge/*.forge; do
  linux_status=0 windows_status=0
  "$linux" verify "$file" >"$work.linux.out" 2>/dev/null || linux_status=$?
  windows verify "$file" >"$work.windows.out" 2>/dev/null || windows_status=$?
  if [ "$linux_status" != "$windows_status" ] || ! cmp -s "$work.linux.out" "$work.windows.out"; then
    echo "verify $file: Linux exit $linux_status, Windows exit $windows_status; output:" >&2
    diff "$work.linux.out" "$work.windows.out" | head -20 >&2 || true
    failures=$((failures + 1))
  fi
done
rm -f "$work.linux.out" "$work.windows.out"

# 2. The round trip, once per build in a folder of its own.
round_trip() {  # RUNNER FOLDER
  local run=$1
  rm -rf "$2" && mkdir -p "$2" && cd "$2"
  cp "$source/corpus/forge/ac2_five_forms.forge" original.forge
  $run extract original.forge -o x -q
  echo '[{"op": "replace", "path": "/objects/0xa7f13e8d804b9c06/instance/instances/0/12", "value": -600.0}]' >move.json
  $run patch x/DataFile_000.data move.json --in-place -q
  printf 'A' | dd of=x/DataFile_002.data bs=1 seek=20 conv=notrunc status=none
  $run put original.forge x/*.data -o edited.forge -q
  $run verify --no-json -q edited.forge
}
round_trip "$linux" "$work/linux"
round_trip windows "$work/windows"
cd "$work"
if ! diff -r linux/x windows/x >&2; then
  echo "the extractions differ" >&2
  failures=$((failures + 1))
fi
if ! cmp linux/edited.forge windows/edited.forge >&2; then
  echo "the archives put back differ" >&2
  failures=$((failures + 1))
fi
[ "$failures" = 0 ]
