#!/usr/bin/env bash
# The CI fuzz smoke (.ci/run): a short AFL++ campaign per harness, one after the other, each with the
# fast build as main instance and the ASan+UBSan build as a secondary (two cores); fails on any crash
# (the minimized input is left under the output folder, not copied into tests/regress/). Builds the
# fast and asan variants first (from a clean clone too). No CMPLOG here: its build would cost more
# than the smoke's seconds could gain from it.
#   fuzz/smoke.sh [SECONDS_PER_TARGET]   (default 30; output in /tmp/anvilrt-smoke/TARGET)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
source "$repo/fuzz/env.sh"
seconds="${1:-${ANVILRT_SMOKE_SECONDS:-30}}"
"$repo/fuzz/build.sh" fast asan
export ANVILRT_FUZZ_NO_BUILD=1
failed=()
for target in $(fuzz_targets); do
  status=0
  "$repo/fuzz/run_campaign.sh" --no-copy --no-cmplog --out "/tmp/anvilrt-smoke/$target" "$target" "$seconds" 2 ||
    status=$?
  [[ $status -eq 0 ]] || failed+=("$target (exit $status)")
done
if [[ ${#failed[@]} -ne 0 ]]; then
  echo "fuzz smoke: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz smoke: no crash"
