#!/usr/bin/env bash
# Where a harness spends its time: callgrind over RUNS executions of one input, in the plain replay
# build (clang -O2, no engine, no sanitizer: build-fuzz/replay). Prints the instructions per execution
# and the functions that cost most (inclusive, per execution). One-time setup (static tables, the patch
# harness's base files) is spread over the RUNS and so counts for little.
#   fuzz/profile.sh TARGET INPUT [RUNS]     (RUNS default 101)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
if [[ $# -lt 2 ]]; then
  echo "usage: $0 TARGET INPUT [RUNS]" >&2
  exit 2
fi
target=$1 input=$2 runs=${3:-101}
build="${ANVILRT_FUZZ_BUILD:-$repo/build-fuzz}/replay"
"$repo/fuzz/build.sh" replay >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Valgrind 3.19 cannot read clang 14's DWARF 5: the symbol table is enough for function names.
objcopy --strip-debug "$build/fuzz/${target}_fuzzer" "$work/harness"
inputs=()
for ((i = 0; i < runs; i++)); do inputs+=("$input"); done
valgrind --tool=callgrind --callgrind-out-file="$work/out" --toggle-collect=LLVMFuzzerTestOneInput \
  "$work/harness" "${inputs[@]}" >/dev/null 2>&1
callgrind_annotate --inclusive=yes "$work/out" 2>/dev/null |
  awk -v runs="$runs" -v input="$input" '
    /^ *[0-9,]+ +\(/ {
      n = $1; gsub(",", "", n); $1 = ""; $2 = ""
      sub(/^ +/, ""); sub(/ \[[^]]*\]$/, ""); sub(/^\?\?\?:/, "")
      if ($0 ~ /PROGRAM TOTALS/) { total = n; printf "%s: %d instructions per execution of %s\n", ENVIRON["target"], n / runs, input; next }
      if ($0 ~ /^(main|LLVMFuzzerTestOneInput|anvil::fuzz::replay|\(below main\)|0x0|.*libc_start)/) next
      if (shown++ < 25) printf "%6.1f%%  %10d  %s\n", 100 * n / total, n / runs, substr($0, 1, 160)
    }'
