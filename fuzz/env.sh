# Sourced by the fuzz scripts: the environment afl-fuzz, afl-tmin and the harnesses run in.
fuzz_dir=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
export AFL_SKIP_CPUFREQ=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1 AFL_NO_UI=1 AFL_NO_AFFINITY=1
export AFL_SKIP_CRASHES=1 AFL_QUIET=1
# Any single allocation over 256 MiB is a crash: inputs are at most 1 MiB (AFL++'s limit), and the
# reader must not allocate more than a small multiple of them (FORMAT.md 2.6).
export ASAN_OPTIONS="abort_on_error=1:symbolize=0:detect_leaks=0:allocator_may_return_null=0:max_allocation_size_mb=256"
export UBSAN_OPTIONS="halt_on_error=1:abort_on_error=1:symbolize=0:print_stacktrace=1:suppressions=$fuzz_dir/ubsan.supp"
