# Sourced by the fuzz scripts: the environment afl-fuzz, afl-tmin and the harnesses run in, and the
# targets of fuzz/targets.txt.
fuzz_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1
export AFL_SKIP_CRASHES=1 AFL_QUIET=1
# Any single allocation over 256 MiB is a crash: inputs are at most 1 MiB (AFL++'s limit), and the
# reader must not allocate more than a small multiple of them (FORMAT.md 2.6).
export ASAN_OPTIONS="abort_on_error=1:symbolize=0:detect_leaks=0:allocator_may_return_null=0:max_allocation_size_mb=256"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:symbolize=0:print_stacktrace=1:suppressions=$fuzz_dir/ubsan.supp"

# The target names, one per line.
fuzz_targets() { sed -n 's/^\([a-z_][a-z_]*\).*/\1/p' "$fuzz_dir/targets.txt"; }

# The seed files of TARGET (its globs in targets.txt, relative to the repository), one per line.
fuzz_seeds() {
  local globs
  globs=$(sed -n "s/^$1[[:space:]][[:space:]]*//p" "$fuzz_dir/targets.txt")
  [[ -n "$globs" ]] || return 1
  (cd "$fuzz_dir/.." && for f in $globs; do [[ -f "$f" ]] && echo "$PWD/$f"; done)
}
