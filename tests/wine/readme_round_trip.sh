#!/usr/bin/env bash
# ReadmeRoundTrip under Wine (tests/wine/CMakeLists.txt): the README's round-trip block, as written, with
# `anvilrt` the Windows executable run by Wine, from a folder on Wine's C: drive with a non-ASCII name
# (C:\anvilrt-tests\Моды café), then the checks of tests/readme_round_trip_test.cpp and one command given
# that folder's absolute Windows path.
# usage: readme_round_trip.sh EMULATOR WINEPREFIX ANVILRT_EXE SOURCE_DIR
# (EMULATOR WINEPREFIX: cmake/windows/wine.sh and its prefix, the build's cross-compiling emulator)
set -euo pipefail
# Wine converts the arguments from the locale's encoding: UTF-8.
export LC_ALL=C.UTF-8
emulator=$1 prefix=$2 exe=$3 source=$4
folder_name='Моды café'
windows_folder="C:\\anvilrt-tests\\$folder_name"
tests=$prefix/drive_c/anvilrt-tests
work=$tests/$folder_name
rm -rf "$tests" && mkdir -p "$work/bin"
ln -s "$source/corpus" "$work/corpus"
printf '#!/bin/sh\nexec "%s" "%s" "%s" "$@"\n' "$emulator" "$prefix" "$exe" >"$work/bin/anvilrt"
chmod +x "$work/bin/anvilrt"

# The block between <!-- round-trip --> and <!-- /round-trip -->, without its fences.
awk '/^<!-- \/round-trip -->/ { inside = 0 } inside && !/^```/ { print } /^<!-- round-trip -->/ { inside = 1 }' \
  "$source/README.md" >"$work/round-trip.sh"
grep -q 'anvilrt put' "$work/round-trip.sh" || { echo "README.md has no round-trip block" >&2; exit 1; }
cd "$work"
if ! PATH="$work/bin:$PATH" bash -euo pipefail round-trip.sh >log 2>&1; then
  cat log >&2
  exit 1
fi

failures=0
fail() { echo "$*" >&2; failures=$((failures + 1)); }
anvilrt() { "$emulator" "$prefix" "$exe" "$@"; }
# The current folder is the Windows path (Wine maps the Unix one to C:\...).
anvilrt verify --no-json -q "$windows_folder\\edited.forge" || fail "verify of $windows_folder\\edited.forge failed"
# What was put back is what extract gives again, byte for byte, every data file.
anvilrt extract edited.forge -o again -q || fail "extract of edited.forge failed"
for data in x/*.data; do
  cmp -s "$data" "again/${data#x/}" || fail "$data differs from the extraction of what was put back"
done
# The diff holds the move, and the archive it patched holds the moved data file.
grep -q '"/datafiles/DataFile_000/objects/0xa7f13e8d804b9c06/instance/instances/0/12"' changes.json ||
  fail "changes.json does not hold the move"
anvilrt extract moved.forge DataFile_000 -o moved -q || fail "extract of moved.forge failed"
cmp -s moved/DataFile_000.data x/DataFile_000.data || fail "moved.forge does not hold the moved data file"
# The byte edited outside the objects is named on stderr, not carried by the patch.
grep -q 'DataFile_002: changed outside objects' log || fail "the log does not name DataFile_002's change"
for out in packed.forge compacted.forge; do
  anvilrt verify --no-json -q "$out" || fail "$out does not verify"
done
[ "$failures" = 0 ] && rm -rf "$tests"
