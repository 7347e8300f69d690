#!/usr/bin/env bash
# Executions per second of a harness's fast build (no sanitizer, no CMPLOG) on its seeds, beside the
# empty harness (fuzz/empty_fuzzer.cpp, which returns at once) run at the same time on the same seeds,
# one afl-fuzz instance each (docs/fuzzing.md). Two rates per harness:
#   wall  executions / run time: what this machine gave, at its load;
#   cpu   executions / CPU seconds of afl-fuzz, its fork server and the harness together (GNU time):
#         the rate of a core of its own, whatever else the machine is doing.
#   alone the fast binary replaying the seeds 1000 times outside afl-fuzz, per CPU second: the
#         harness's own cost, without the engine's (the empty harness here measures reading the files).
# The ratio to the empty harness is given for each.
#   fuzz/measure.sh TARGET [SECONDS]     (default 60)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
source "$repo/fuzz/env.sh"
if [[ $# -lt 1 ]] || ! fuzz_targets | grep -qx "$1"; then
  echo "usage: $0 $(fuzz_targets | paste -sd'|') [SECONDS]" >&2
  exit 2
fi
target=$1 seconds=${2:-60}
build="${ANVILRT_FUZZ_BUILD:-$repo/build-fuzz}/fast"
[[ "${ANVILRT_FUZZ_NO_BUILD:-0}" == 1 ]] || "$repo/fuzz/build.sh" fast
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/seeds"
while read -r f; do cp "$f" "$work/seeds/$(basename "$(dirname "$f")")_$(basename "$f")"; done < <(fuzz_seeds "$target")
pids=()
for harness in "$target" empty; do
  cp "$build/fuzz/${harness}_fuzzer" "$work/$harness"
  /usr/bin/time -f "%U %S" -o "$work/$harness.time" afl-fuzz -i "$work/seeds" -o "$work/out-$harness" -x "$repo/fuzz/dict/anvil.dict" -t 2000 \
    -V "$seconds" -- "$work/$harness" >"$work/$harness.log" 2>&1 &
  pids+=($!)
done
for pid in "${pids[@]}"; do wait "$pid" || true; done
field() { sed -n "s/^$1 *: *//p" "$work/out-$2/default/fuzzer_stats" 2>/dev/null; }
for harness in "$target" empty; do
  [[ -n "$(field execs_done "$harness")" ]] || { echo "measure: $harness did not run:" >&2; tail -5 "$work/$harness.log" >&2; exit 1; }
done
# Executions over the run time (fuzzer_stats' execs_per_sec is the rate of the last minute only), and
# over the CPU time.
wall() { echo "$(field execs_done "$1") $(field run_time "$1")" | awk '{ printf "%.0f", $1 / $2 }'; }
cpu() { echo "$(field execs_done "$1") $(cat "$work/$1.time")" | awk '{ printf "%.0f", $1 / ($2 + $3) }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; }
echo "$target: $(field execs_done "$target") executions in $(field run_time "$target") s;" \
  "wall $(wall "$target")/s (empty $(wall empty)/s, ratio $(ratio "$(wall "$target")" "$(wall empty)"));" \
  "cpu $(cpu "$target")/s (empty $(cpu empty)/s, ratio $(ratio "$(cpu "$target")" "$(cpu empty)"));" \
  "edges $(field edges_found "$target")/$(field total_edges "$target"); load $(cut -d' ' -f1-3 /proc/loadavg)"
# The harness alone: its own driver replays the seeds (read from the page cache) 1000 times over.
mapfile -t seeds < <(find "$work/seeds" -type f)
for harness in "$target" empty; do
  args=()
  for ((i = 0; i < 1000; i++)); do args+=("${seeds[@]}"); done
  /usr/bin/time -f "%U %S" -o "$work/$harness.alone" "$work/$harness" "${args[@]}" >/dev/null 2>&1
done
alone() { echo "$((1000 * ${#seeds[@]})) $(cat "$work/$1.alone")" | awk '{ printf "%.0f", $1 / ($2 + $3) }'; }
echo "$target alone: $((1000 * ${#seeds[@]})) executions, $(alone "$target") per CPU second" \
  "(empty $(alone empty), ratio $(ratio "$(alone "$target")" "$(alone empty)"))"
