#!/usr/bin/env bash
# Runs an AFL++ campaign on one harness, then minimizes every crash it found and copies it into
# tests/regress/TARGET/, which tests/regress_test.cpp replays on every test run (docs/fuzzing.md).
#
#   fuzz/run_campaign.sh [--no-copy] [--out DIR] TARGET SECONDS
#
# TARGET: carve | json | dump | patch. The harnesses are built (incrementally) in $ANVILRT_FUZZ_BUILD
# (default build-fuzz) with afl-clang-fast++, ASan and UBSan. Output goes to DIR (default
# /tmp/anvilrt-fuzz/TARGET, emptied first). --no-copy leaves tests/regress/ alone (the CI smoke).
# Exit: 0 no crash, 1 crashes found (listed, minimized under DIR/crashes-min), 2 usage or build error.
set -euo pipefail

repo=$(cd "$(dirname "$0")/.." && pwd)
copy=1
out=""
while [[ $# -gt 0 ]]; do
  case "$1" in
    --no-copy) copy=0; shift ;;
    --out) out="$2"; shift 2 ;;
    -h|--help) sed -n '2,11p' "$0"; exit 0 ;;
    *) break ;;
  esac
done
if [[ $# -ne 2 ]] || ! [[ "$2" =~ ^[0-9]+$ ]]; then
  echo "usage: $0 [--no-copy] [--out DIR] carve|json|dump|patch SECONDS" >&2
  exit 2
fi
target="$1"
seconds="$2"
out="${out:-/tmp/anvilrt-fuzz/$target}"
build="${ANVILRT_FUZZ_BUILD:-$repo/build-fuzz}"

# ANVILRT_FUZZ_NO_BUILD=1: the caller built already (campaigns in parallel must not build at once).
if [[ "${ANVILRT_FUZZ_NO_BUILD:-0}" != 1 ]]; then
  "$repo/fuzz/build.sh" "$build" >&2 || { echo "run_campaign: the fuzz build failed" >&2; exit 2; }
fi
binary="$build/fuzz/${target}_fuzzer"
if [[ ! -x "$binary" ]]; then
  echo "run_campaign: no harness $binary (targets: $(ls "$build/fuzz" | sed -n 's/_fuzzer$//p' | tr '\n' ' '))" >&2
  exit 2
fi

source "$repo/fuzz/env.sh"

# Seeds: the corpus for the byte harnesses, dumps of it for json, patches for patch; plus every input
# already in tests/regress/TARGET (a campaign starts from what earlier ones found).
rm -rf "$out"
mkdir -p "$out/seeds"
# The campaign runs a copy, so that rebuilding the harnesses meanwhile does not disturb it.
cp "$binary" "$out/${target}_fuzzer"
binary="$out/${target}_fuzzer"
case "$target" in
  carve|dump)
    for f in "$repo"/corpus/*/*.bin; do cp "$f" "$out/seeds/$(basename "$(dirname "$f")")_$(basename "$f")"; done ;;
  json)
    cp "$repo"/fuzz/seeds/json/*.json "$out/seeds/" ;;
  patch)
    cp "$repo"/fuzz/seeds/patch/* "$out/seeds/" ;;
esac
if [[ -d "$repo/tests/regress/$target" ]]; then
  for f in "$repo/tests/regress/$target"/*; do [[ -f "$f" ]] && cp "$f" "$out/seeds/regress_$(basename "$f")"; done
fi

# A seed that crashes would only be skipped by afl-fuzz (AFL_SKIP_CRASHES): replay them all first.
for seed in "$out"/seeds/*; do
  if ! ("$binary" "$seed") >"$out/replay.log" 2>&1; then
    echo "run_campaign: the seed $(basename "$seed") crashes the $target harness:" >&2
    grep -m3 -E "invariant broken|ERROR|runtime error" "$out/replay.log" >&2 || tail -5 "$out/replay.log" >&2
    exit 1
  fi
done

echo "run_campaign: $target for ${seconds}s, output in $out" >&2
# -V: stop after SECONDS; -m none: ASan reserves a large address space; -t: per-input timeout (ms).
set +e
nice -n 19 afl-fuzz -i "$out/seeds" -o "$out/afl" -x "$repo/fuzz/dict/anvil.dict" -m none -t 2000 \
  -V "$seconds" -- "$binary" >"$out/afl.log" 2>&1
status=$?
set -e
stats="$out/afl/default/fuzzer_stats"
if [[ ! -f "$stats" ]]; then
  echo "run_campaign: afl-fuzz did not run (exit $status); the end of $out/afl.log:" >&2
  tail -20 "$out/afl.log" >&2
  exit 2
fi
stat() { sed -n "s/^$1 *: *//p" "$stats"; }
echo "run_campaign: $target: run_time $(stat run_time)s, execs_done $(stat execs_done)," \
  "execs_per_sec $(stat execs_per_sec), corpus_count $(stat corpus_count)," \
  "edges_found $(stat edges_found)/$(stat total_edges), bitmap_cvg $(stat bitmap_cvg)," \
  "saved_crashes $(stat saved_crashes), saved_hangs $(stat saved_hangs)"

crashes=("$out"/afl/default/crashes/id:*)
[[ -e "${crashes[0]}" ]] || exit 0

mkdir -p "$out/crashes-min"
for crash in "${crashes[@]}"; do
  min="$out/crashes-min/$(sha1sum "$crash" | cut -c1-12)"
  nice -n 19 afl-tmin -i "$crash" -o "$min" -m none -t 5000 -- "$binary" >"$out/tmin.log" 2>&1 || cp "$crash" "$min"
  name="crash-$(sha1sum "$min" | cut -c1-12)"
  mv "$min" "$out/crashes-min/$name"
  echo "run_campaign: crash $(basename "$crash") -> $out/crashes-min/$name" >&2
  ("$binary" "$out/crashes-min/$name") >"$out/replay.log" 2>&1 || true
  grep -m3 -E "invariant broken|ERROR|runtime error" "$out/replay.log" >&2 || true
  if [[ $copy -eq 1 ]]; then
    mkdir -p "$repo/tests/regress/$target"
    cp "$out/crashes-min/$name" "$repo/tests/regress/$target/$name"
    echo "run_campaign: copied to tests/regress/$target/$name" >&2
  fi
done
exit 1
