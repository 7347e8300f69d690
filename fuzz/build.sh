#!/usr/bin/env bash
# Configures (once) and builds the AFL++ harnesses with ASan+UBSan: fuzz/build.sh [BUILD_DIR].
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
build="${1:-$repo/build-fuzz}"
if [[ ! -f "$build/CMakeCache.txt" ]]; then
  CC=afl-clang-fast CXX=afl-clang-fast++ cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
    -DANVILRT_FUZZ=ON -DANVILRT_SANITIZE=ON -DANVILRT_TESTS=OFF >/dev/null
else
  cmake "$build" >/dev/null
fi
if ! nice -n 19 cmake --build "$build" -j "${ANVILRT_FUZZ_JOBS:-2}" --target anvilrt_fuzz_all >"$build/fuzz-build.log" 2>&1; then
  grep -E "error|Error" "$build/fuzz-build.log" | head -20 >&2
  exit 1
fi
