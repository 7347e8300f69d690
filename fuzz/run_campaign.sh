#!/usr/bin/env bash
# Runs an AFL++ campaign on one harness, then minimizes every crash it found and copies it into
# tests/regress/TARGET/, which tests/regress_test.cpp replays on every test run (docs/fuzzing.md).
#
#   fuzz/run_campaign.sh [--no-copy] [--fast-only] [--out DIR] [--execs N] TARGET SECONDS [CORES]
#
# TARGET: a line of fuzz/targets.txt. One afl-fuzz instance per core (CORES, default 1): the main
# instance runs the fast build (no sanitizer) with the CMPLOG build as -c; every other instance is a
# secondary on the ASan+UBSan build. The builds (fuzz/build.sh) are in $ANVILRT_FUZZ_BUILD (default
# build-fuzz). SECONDS: stop after that long (0: no time limit); --execs N: stop once the instances
# have run N executions together (afl-fuzz -E, N/CORES each). Output goes to DIR (default
# /tmp/anvilrt-fuzz/TARGET, emptied first). --no-copy leaves tests/regress/ alone. --fast-only needs
# only the fast build (the CI smoke): every instance runs it, the main one without -c, and it also
# replays the seeds and minimizes the crashes (which the ASan build does otherwise).
# Exit: 0 no crash, 1 crashes found (listed, minimized under DIR/crashes-min), 2 usage or build error.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
source "$repo/fuzz/env.sh"
copy=1
fast_only=0
out=""
execs=0
while [[ $# -gt 0 ]]; do
  case "$1" in
    --no-copy) copy=0; shift ;;
    --fast-only) fast_only=1; shift ;;
    --out) out="$2"; shift 2 ;;
    --execs) execs="$2"; shift 2 ;;
    -h|--help) sed -n '2,16p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
if [[ $# -lt 2 || $# -gt 3 ]] || ! [[ "$2" =~ ^[0-9]+$ && "${3:-1}" =~ ^[1-9][0-9]*$ && "$execs" =~ ^[0-9]+$ ]] ||
  ! fuzz_targets | grep -qx "$1"; then
  echo "usage: $0 [--no-copy] [--fast-only] [--out DIR] [--execs N] $(fuzz_targets | paste -sd'|') SECONDS [CORES]" >&2
  exit 2
fi
target="$1"
seconds="$2"
cores="${3:-1}"
out="${out:-/tmp/anvilrt-fuzz/$target}"
root="${ANVILRT_FUZZ_BUILD:-$repo/build-fuzz}"
variants=(fast asan cmplog)
# --fast-only runs ANVILRT_FUZZ_FAST_VARIANT's build (default fast; the smoke's is quick) as the fast one.
[[ $fast_only -eq 0 ]] || variants=("${ANVILRT_FUZZ_FAST_VARIANT:-fast}")

# ANVILRT_FUZZ_NO_BUILD=1: the caller built already (campaigns in parallel must not build at once).
if [[ "${ANVILRT_FUZZ_NO_BUILD:-0}" != 1 ]]; then
  "$repo/fuzz/build.sh" "${variants[@]}" || { echo "run_campaign: the fuzz build failed" >&2; exit 2; }
fi

# The campaign runs copies, so that rebuilding the harnesses meanwhile does not disturb it.
rm -rf "$out"
mkdir -p "$out/seeds" "$out/bin"
for variant in "${variants[@]}"; do
  binary="$root/$variant/fuzz/${target}_fuzzer"
  [[ -x "$binary" ]] || { echo "run_campaign: no harness $binary (run fuzz/build.sh $variant)" >&2; exit 2; }
  cp "$binary" "$out/bin/$variant"
done
[[ $fast_only -eq 0 || ${variants[0]} == fast ]] || mv "$out/bin/${variants[0]}" "$out/bin/fast"
fast="$out/bin/fast" triage="$out/bin/asan"
[[ $fast_only -eq 0 ]] || triage="$fast"  # replays, minimizes, and runs the secondaries

# Seeds: the target's globs in fuzz/targets.txt, plus every input already in tests/regress/TARGET (a
# campaign starts from what earlier ones found).
while read -r f; do
  cp "$f" "$out/seeds/$(basename "$(dirname "$f")")_$(basename "$f")"
done < <(fuzz_seeds "$target")
if [[ -d "$repo/tests/regress/$target" ]]; then
  for f in "$repo/tests/regress/$target"/*; do [[ -f "$f" ]] && cp "$f" "$out/seeds/regress_$(basename "$f")"; done
fi

# A seed that crashes would only be skipped by afl-fuzz (AFL_SKIP_CRASHES): replay them all first (under
# the sanitizers unless --fast-only).
for seed in "$out"/seeds/*; do
  if ! ("$triage" "$seed") >"$out/replay.log" 2>&1; then
    echo "run_campaign: the seed $(basename "$seed") crashes the $target harness:" >&2
    grep -m3 -E "invariant broken|ERROR|runtime error" "$out/replay.log" >&2 || tail -5 "$out/replay.log" >&2
    exit 1
  fi
done

# -V: stop after SECONDS; -E: after that many executions (per instance); -m none: ASan reserves a large
# address space; -t: per-input timeout (ms).
limits=()
[[ "$seconds" -eq 0 ]] || limits+=(-V "$seconds")
[[ "$execs" -eq 0 ]] || limits+=(-E "$(((execs + cores - 1) / cores))")
# -G: inputs no longer than four times the largest seed (8 KiB at least). The structures are local, and
# without a cap splices grow the queue to the 1 MiB default: after 4.5 million executions the carve and
# dump queues held 180 KB inputs, and ran at 300 and 10 executions per second instead of thousands.
largest=$(stat -c %s "$out"/seeds/* | sort -n | tail -1)
max_len=$((4 * largest > 8192 ? 4 * largest : 8192))
common=(-i "$out/seeds" -o "$out/afl" -x "$repo/fuzz/dict/anvil.dict" -m none -t 2000 -G "$max_len" "${limits[@]}")
main=(-M main)
[[ $fast_only -eq 1 ]] || main+=(-c "$out/bin/cmplog")
limit="${seconds}s"
[[ "$execs" -eq 0 ]] || limit+=" or $execs executions"
echo "run_campaign: $target, $limit, $cores instance(s), output in $out" >&2
pids=()
for ((i = 1; i < cores; i++)); do
  nice -n 19 afl-fuzz "${common[@]}" -S "secondary$i" -- "$triage" >"$out/afl-secondary$i.log" 2>&1 &
  pids+=($!)
done
set +e
nice -n 19 afl-fuzz "${common[@]}" "${main[@]}" -- "$fast" >"$out/afl-main.log" 2>&1
status=$?
for pid in "${pids[@]}"; do wait "$pid"; done
set -e
if [[ ! -f "$out/afl/main/fuzzer_stats" ]]; then
  echo "run_campaign: afl-fuzz did not run (exit $status); the end of $out/afl-main.log:" >&2
  tail -20 "$out/afl-main.log" >&2
  exit 2
fi

field() { sed -n "s/^$1 *: *//p" "$2"; }
total=0
for stats in "$out"/afl/*/fuzzer_stats; do
  instance=$(basename "$(dirname "$stats")")
  total=$((total + $(field execs_done "$stats")))
  echo "run_campaign: $target/$instance: run_time $(field run_time "$stats")s, execs_done $(field execs_done "$stats")," \
    "execs_per_sec $(field execs_per_sec "$stats"), cycles_done $(field cycles_done "$stats")," \
    "corpus_count $(field corpus_count "$stats"), edges_found $(field edges_found "$stats")/$(field total_edges "$stats")," \
    "saved_crashes $(field saved_crashes "$stats"), saved_hangs $(field saved_hangs "$stats")"
done
echo "run_campaign: $target: $total executions in all" >&2

crashes=()
for crash in "$out"/afl/*/crashes/id:*; do [[ -e "$crash" ]] && crashes+=("$crash"); done
[[ ${#crashes[@]} -gt 0 ]] || exit 0

# Minimized and replayed on the ASan+UBSan build (unless --fast-only), which reports a crash of either
# build and names it.
mkdir -p "$out/crashes-min"
for crash in "${crashes[@]}"; do
  min="$out/crashes-min/$(sha1sum "$crash" | cut -c1-12)"
  nice -n 19 afl-tmin -i "$crash" -o "$min" -m none -t 5000 -- "$triage" >"$out/tmin.log" 2>&1 || cp "$crash" "$min"
  name="crash-$(sha1sum "$min" | cut -c1-12)"
  mv "$min" "$out/crashes-min/$name"
  echo "run_campaign: crash $crash -> $out/crashes-min/$name" >&2
  ("$triage" "$out/crashes-min/$name") >"$out/replay.log" 2>&1 || true
  grep -m3 -E "invariant broken|ERROR|runtime error" "$out/replay.log" >&2 || true
  if [[ $copy -eq 1 ]]; then
    mkdir -p "$repo/tests/regress/$target"
    cp "$out/crashes-min/$name" "$repo/tests/regress/$target/$name"
    echo "run_campaign: copied to tests/regress/$target/$name" >&2
  fi
done
exit 1
