#!/usr/bin/env bash
# The CI fuzz smoke (.ci/run), under 5 minutes from a clean clone: builds the quick variant only, then
# runs a short AFL++ campaign per harness, two harnesses at a time (one core each), and fails on any
# crash (the minimized input is left under the output folder, not copied into tests/regress/). The
# sanitizers see every regression input and the corpus in ./dev test's ASan+UBSan build, and run in
# every campaign's secondaries (run_campaign.sh); a build of them here would not fit the 5 minutes.
#   fuzz/smoke.sh [SECONDS_PER_TARGET]   (default 30; output in /tmp/anvilrt-smoke/TARGET)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
source "$repo/fuzz/env.sh"
seconds="${1:-${ANVILRT_SMOKE_SECONDS:-30}}"
# The quick variant (fuzz/build.sh): the fast one compiled in half the time.
"$repo/fuzz/build.sh" quick
export ANVILRT_FUZZ_NO_BUILD=1 ANVILRT_FUZZ_FAST_VARIANT=quick
mapfile -t targets < <(fuzz_targets)
failed=()
for ((i = 0; i < ${#targets[@]}; i += 2)); do
  pids=()
  for target in "${targets[@]:i:2}"; do
    "$repo/fuzz/run_campaign.sh" --no-copy --fast-only --out "/tmp/anvilrt-smoke/$target" "$target" "$seconds" &
    pids+=("$!:$target")
  done
  for entry in "${pids[@]}"; do
    status=0
    wait "${entry%%:*}" || status=$?
    [[ $status -eq 0 ]] || failed+=("${entry#*:} (exit $status)")
  done
done
if [[ ${#failed[@]} -ne 0 ]]; then
  echo "fuzz smoke: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz smoke: no crash"
