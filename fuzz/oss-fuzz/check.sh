#!/usr/bin/env bash
# Checks fuzz/oss-fuzz/build.sh here, with the variables set as OSS-Fuzz sets them for an ASan build:
#   libfuzzer  CC=clang CXX=clang++, -fsanitize=address,fuzzer-no-link, LIB_FUZZING_ENGINE=-fsanitize=fuzzer
#   afl        CC=afl-clang-fast CXX=afl-clang-fast++, -fsanitize=address, LIB_FUZZING_ENGINE=AFL++'s
#              libAFLDriver.a (Debian's afl++ ships it in /usr/lib/afl; OSS-Fuzz copies its own build of it
#              to /usr/lib/libFuzzingEngine.a)
# then runs every built target on its seed corpus (from the zip build.sh made): libFuzzer's -runs=0, and
# the AFL++ driver's file arguments. fuzz/oss-fuzz/check.sh [libfuzzer|afl]...  (default: both)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
source "$repo/fuzz/env.sh"
engines=("$@")
[[ ${#engines[@]} -gt 0 ]] || engines=(libfuzzer afl)
flags="-O1 -fno-omit-frame-pointer -gline-tables-only -fsanitize=address -fsanitize-address-use-after-scope"
for engine in "${engines[@]}"; do
  out=$(mktemp -d) work=$(mktemp -d)
  case "$engine" in
    libfuzzer)
      env CC=clang CXX=clang++ CFLAGS="$flags -fsanitize=fuzzer-no-link" CXXFLAGS="$flags -fsanitize=fuzzer-no-link" \
        LIB_FUZZING_ENGINE=-fsanitize=fuzzer OUT="$out" WORK="$work" SRC="$work" \
        nice -n 19 "$repo/fuzz/oss-fuzz/build.sh" >"$work/build.log" 2>&1 ||
        { tail -20 "$work/build.log" >&2; exit 1; } ;;
    afl)
      driver=/usr/lib/afl/libAFLDriver.a
      [[ -f "$driver" ]] || { echo "check: no $driver (Debian's afl++ package ships it)" >&2; exit 1; }
      env CC=afl-clang-fast CXX=afl-clang-fast++ CFLAGS="$flags" CXXFLAGS="$flags" LIB_FUZZING_ENGINE="$driver" \
        OUT="$out" WORK="$work" SRC="$work" AFL_QUIET=1 \
        nice -n 19 "$repo/fuzz/oss-fuzz/build.sh" >"$work/build.log" 2>&1 ||
        { tail -20 "$work/build.log" >&2; exit 1; } ;;
    *) echo "usage: $0 [libfuzzer|afl]..." >&2; exit 2 ;;
  esac
  for target in $(fuzz_targets); do
    for file in "${target}_fuzzer" "${target}_fuzzer_seed_corpus.zip" "${target}_fuzzer.dict"; do
      [[ -s "$out/$file" ]] || { echo "check: $engine: no \$OUT/$file" >&2; exit 1; }
    done
    seeds="$work/seeds-$target"
    mkdir -p "$seeds" && unzip -q "$out/${target}_fuzzer_seed_corpus.zip" -d "$seeds"
    count=$(find "$seeds" -type f | wc -l)
    if [[ $engine == libfuzzer ]]; then
      "$out/${target}_fuzzer" -runs=0 -dict="$out/${target}_fuzzer.dict" "$seeds" >"$work/run.log" 2>&1 || status=$?
    else
      "$out/${target}_fuzzer" "$seeds"/* >"$work/run.log" 2>&1 || status=$?
    fi
    if [[ ${status:-0} -ne 0 ]]; then
      echo "check: $engine: ${target}_fuzzer failed on its seeds:" >&2
      tail -5 "$work/run.log" >&2
      exit 1
    fi
    echo "check: $engine: ${target}_fuzzer ran its $count seeds: $(grep -m1 -oE 'INITED.*|Done [0-9]+ runs.*|Execution successful.*' "$work/run.log" || echo ok)"
  done
  rm -rf "$out" "$work"
done
