#!/usr/bin/env bash
# Line and branch coverage of the library folders (model/ reader/ writer/ patch/ pipeline/) reached by a fuzz
# target's inputs: fuzz/coverage.sh TARGET [QUEUE_DIR...]
# Builds the coverage variant (clang's source-based coverage, the plain replay driver: fuzz/build.sh
# coverage), runs every input of QUEUE_DIR (a campaign's queue, e.g. /tmp/anvilrt-fuzz/carve/afl/main/queue;
# default: the target's seeds and tests/regress/TARGET) once, then prints llvm-cov's summary per folder
# and the check sites of the readers (every `fail(` of reader/byte_reader.hpp and reader/json_reader.hpp,
# each a kind of check of FORMAT.md) that no input reached.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
source "$repo/fuzz/env.sh"
if [[ $# -lt 1 ]] || ! fuzz_targets | grep -qx "$1"; then
  echo "usage: $0 $(fuzz_targets | paste -sd'|') [QUEUE_DIR...]" >&2
  exit 2
fi
target=$1
shift
build="${ANVILRT_FUZZ_BUILD:-$repo/build-fuzz}/coverage"
"$repo/fuzz/build.sh" coverage
binary="$build/fuzz/${target}_fuzzer"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

inputs=("$@")
if [[ ${#inputs[@]} -eq 0 ]]; then
  mapfile -t inputs < <(fuzz_seeds "$target")
  [[ -d "$repo/tests/regress/$target" ]] && inputs+=("$repo/tests/regress/$target")
fi
# One process for all inputs: a harness that aborts (a crash in the queue) would lose the profile, so
# a failing run is reported, not hidden.
if ! LLVM_PROFILE_FILE="$work/run.profraw" "$binary" "${inputs[@]}" >"$work/run.log" 2>&1; then
  echo "coverage: the $target harness failed on an input:" >&2
  tail -5 "$work/run.log" >&2
  exit 1
fi
llvm-profdata merge -sparse "$work/run.profraw" -o "$work/run.profdata"
folders=(model reader writer patch pipeline)
llvm-cov export -summary-only -instr-profile="$work/run.profdata" "$binary" "${folders[@]/#/$repo/}" >"$work/summary.json"
echo "coverage of $target ($(find "${inputs[@]}" -type f | wc -l) inputs):"
/usr/bin/python3 - "$work/summary.json" "$repo" "${folders[@]}" <<'PY'
import json, sys
summary, repo, folders = sys.argv[1], sys.argv[2], sys.argv[3:]
files = json.load(open(summary))["data"][0]["files"]
totals = {f: {"lines": [0, 0], "branches": [0, 0]} for f in folders + ["all"]}
for entry in files:
    folder = entry["filename"][len(repo) + 1:].split("/")[0]
    if folder not in folders:
        continue
    for kind in ("lines", "branches"):
        s = entry["summary"][kind]
        for key in (folder, "all"):
            totals[key][kind][0] += s["covered"]
            totals[key][kind][1] += s["count"]
print(f"{'folder':8} {'lines':>20} {'branches':>20}")
for key, t in totals.items():
    cells = [f"{c}/{n} {100 * c / n:5.1f} %" if n else "-" for c, n in (t["lines"], t["branches"])]
    print(f"{key + ('/' if key != 'all' else ''):8} {cells[0]:>20} {cells[1]:>20}")
PY
echo "check sites no input reached (file:line: source):"
llvm-cov show -instr-profile="$work/run.profdata" "$binary" "$repo/reader/byte_reader.hpp" "$repo/reader/json_reader.hpp" \
  -show-instantiations=false -format=text 2>/dev/null |
  awk -v repo="$repo/" '
    /^\/.*:$/ { file = substr($0, length(repo) + 1, length($0) - length(repo) - 1); next }
    /^ *[0-9]+\| *0\|.*fail\(/ && !/void fail\(/ { split($0, p, "|"); line = p[1]; gsub(/ /, "", line); src = p[3]; sub(/^ +/, "", src)
      if (!seen[file ":" line]++) print "  " file ":" line ": " src }' | sort -t: -k1,1 -k2,2n
