#!/usr/bin/env bash
# Configures (once) and builds the fuzz harnesses: fuzz/build.sh [VARIANT...]   (default: fast cmplog asan)
# Each variant is its own build folder, $ANVILRT_FUZZ_BUILD/VARIANT (default build-fuzz/VARIANT):
#   fast      afl-clang-fast++, no sanitizer: the main afl-fuzz instance (AFL++'s fuzzing_in_depth guide)
#   quick     the fast variant built for the CI smoke (fuzz/smoke.sh): -O1, no debug information, a unity
#             build (sources compiled eight to a translation unit): half the compile time of fast, whose
#             build is most of the smoke's 5 minutes; slower to run, which a 30-second smoke can afford
#   cmplog    the same with AFL_LLVM_CMPLOG=1: logs comparison operands for afl-fuzz -c (class ids, constants)
#   asan      afl-clang-fast++ with ASan+UBSan: the secondary instances, and triage
#   replay    clang++ -O2, no engine: runs files once (fuzz/profile.sh)
#   coverage  clang++ with source-based coverage, no engine (fuzz/coverage.sh)
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
root="${ANVILRT_FUZZ_BUILD:-$repo/build-fuzz}"
variants=("$@")
[[ ${#variants[@]} -gt 0 ]] || variants=(fast cmplog asan)

for variant in "${variants[@]}"; do
  build="$root/$variant"
  compilers=(CC=afl-clang-fast CXX=afl-clang-fast++)
  build_type=RelWithDebInfo
  options=(-DANVILRT_FUZZ_ENGINE=afl)
  environment=()
  case "$variant" in
    fast) ;;
    quick) options+=(-DCMAKE_UNITY_BUILD=ON -DCMAKE_UNITY_BUILD_BATCH_SIZE=8) build_type=Release
      options+=("-DCMAKE_CXX_FLAGS_RELEASE=-O1 -DNDEBUG") ;;
    cmplog) environment=(AFL_LLVM_CMPLOG=1) ;;
    asan) options+=(-DANVILRT_SANITIZE=ON) ;;
    replay)
      compilers=(CC=clang CXX=clang++)
      options=(-DANVILRT_FUZZ_ENGINE=replay) ;;
    coverage)
      # Not through ccache: with its base_dir set, it rewrites the paths the coverage mapping records to
      # relative ones, which llvm-cov's folder filters then miss (every folder reads "-").
      environment=(CCACHE_DISABLE=1)
      compilers=(CC=clang CXX=clang++)
      options=(-DANVILRT_FUZZ_ENGINE=replay "-DCMAKE_CXX_FLAGS=-fprofile-instr-generate -fcoverage-mapping") ;;
    *) echo "fuzz/build.sh: unknown variant $variant (fast quick cmplog asan replay coverage)" >&2; exit 2 ;;
  esac
  if [[ ! -f "$build/CMakeCache.txt" ]]; then
    env "${compilers[@]}" cmake -S "$repo" -B "$build" -DCMAKE_BUILD_TYPE=$build_type -DANVILRT_FUZZ=ON \
      -DANVILRT_TESTS=OFF -DANVILRT_BENCH=OFF "${options[@]}" >/dev/null
  else
    cmake "$build" >/dev/null
  fi
  # AFL_LLVM_CMPLOG is read by afl-clang-fast when it compiles, so it is set for the build itself.
  if ! env "${environment[@]}" nice -n 19 cmake --build "$build" -j "${ANVILRT_FUZZ_JOBS:-2}" \
    --target anvilrt_fuzz_all >"$build/fuzz-build.log" 2>&1; then
    echo "fuzz/build.sh: the $variant build failed ($build/fuzz-build.log):" >&2
    grep -E "error|Error" "$build/fuzz-build.log" | head -20 >&2
    exit 1
  fi
done
