#!/bin/bash -eu
# Builds the fuzz targets of fuzz/targets.txt as OSS-Fuzz and ClusterFuzzLite do: with $CC $CXX $CFLAGS
# $CXXFLAGS (the sanitizer and coverage flags), linked with $LIB_FUZZING_ENGINE (-fsanitize=fuzzer for
# libFuzzer, AFL++'s libAFLDriver.a for AFL++), into $OUT: TARGET_fuzzer, TARGET_seed_corpus.zip and
# TARGET.dict for each. Abseil and Boost come from $SRC/abseil-cpp and $SRC/boost when the Dockerfile
# cloned them (built here with the same flags); otherwise the system's are used (fuzz/oss-fuzz/check.sh).
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
: "${SRC:=$repo/..}" "${WORK:=$(mktemp -d)}"
source "$repo/fuzz/env.sh"

prefix=()
if [[ -d "$SRC/abseil-cpp" ]]; then
  cmake -S "$SRC/abseil-cpp" -B "$WORK/abseil" -G Ninja -DCMAKE_BUILD_TYPE=None -DCMAKE_CXX_STANDARD=20 \
    -DABSL_PROPAGATE_CXX_STD=ON -DCMAKE_INSTALL_PREFIX="$WORK/deps"
  cmake --build "$WORK/abseil" --target install
fi
if [[ -d "$SRC/boost" ]]; then
  (cd "$SRC/boost" && ./bootstrap.sh --with-toolset=clang --with-libraries=serialization,program_options &&
    ./b2 -j"$(nproc)" toolset=clang cxxflags="$CXXFLAGS" linkflags="$CXXFLAGS" link=static variant=release \
      --prefix="$WORK/deps" install)
  prefix=(-DBoost_USE_STATIC_LIBS=ON)
fi
[[ ! -d "$WORK/deps" ]] || prefix+=(-DCMAKE_PREFIX_PATH="$WORK/deps")

# CMAKE_BUILD_TYPE=None: the flags are OSS-Fuzz's alone. The engine is linked as given.
cmake -S "$repo" -B "$WORK/anvilrt" -DCMAKE_BUILD_TYPE=None -DANVILRT_FUZZ=ON -DANVILRT_FUZZ_ENGINE=external \
  -DANVILRT_FUZZ_LINK="$LIB_FUZZING_ENGINE" -DANVILRT_TESTS=OFF -DANVILRT_BENCH=OFF "${prefix[@]}"
for target in $(fuzz_targets); do
  cmake --build "$WORK/anvilrt" -j"$(nproc)" --target "${target}_fuzzer"
  cp "$WORK/anvilrt/fuzz/${target}_fuzzer" "$OUT/"
  rm -f "$OUT/${target}_fuzzer_seed_corpus.zip"
  # The seeds (and what earlier campaigns kept), named after their folder too: the two dialects'
  # folders hold files of the same names.
  { fuzz_seeds "$target"; find "$repo/tests/regress/$target" -type f 2>/dev/null || true; } | while read -r seed; do
    echo "$seed" "$(basename "$(dirname "$seed")")_$(basename "$seed")"
  done | while read -r seed name; do
    cp "$seed" "$WORK/$name" && (cd "$WORK" && zip -q "$OUT/${target}_fuzzer_seed_corpus.zip" "$name") && rm "$WORK/$name"
  done
  cp "$repo/fuzz/dict/anvil.dict" "$OUT/${target}_fuzzer.dict"
done
