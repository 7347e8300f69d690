#!/usr/bin/env bash
# The CI fuzz smoke (.ci/run): a short AFL++ campaign per harness, one after the other; fails on any
# crash (the minimized input is left under the output folder, not copied into tests/regress/).
#   fuzz/smoke.sh [SECONDS_PER_TARGET]   (default 60; output in /tmp/anvilrt-smoke/TARGET)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
seconds="${1:-${ANVILRT_SMOKE_SECONDS:-60}}"
build="${ANVILRT_FUZZ_BUILD:-$repo/build-fuzz}"
"$repo/fuzz/build.sh" "$build"
export ANVILRT_FUZZ_NO_BUILD=1
failed=()
for target in carve json dump patch; do
  [[ -x "$build/fuzz/${target}_fuzzer" ]] || continue
  status=0
  "$repo/fuzz/run_campaign.sh" --no-copy --out "/tmp/anvilrt-smoke/$target" "$target" "$seconds" || status=$?
  [[ $status -eq 0 ]] || failed+=("$target (exit $status)")
done
if [[ ${#failed[@]} -ne 0 ]]; then
  echo "fuzz smoke: FAILED: ${failed[*]}" >&2
  exit 1
fi
echo "fuzz smoke: no crash"
