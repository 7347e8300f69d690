// The AFL++ driver of the local builds, as AFL++'s guide (instrumentation/README.persistent_mode.md)
// recommends: the harness's one-time setup runs before the deferred fork server starts (__AFL_INIT), so
// that no child repeats it; then persistent mode, each test case read from shared memory
// (__AFL_FUZZ_TESTCASE_BUF) instead of a file, many per process (__AFL_LOOP).
//   TARGET_fuzzer            under afl-fuzz or afl-tmin (or one input on stdin)
//   TARGET_fuzzer PATH...    runs the files (triage, seed replay; fuzz/replay.hpp)
// OSS-Fuzz links AFL++'s own libAFLDriver instead (fuzz/oss-fuzz/build.sh), which does the same.
#include <unistd.h>

#include "fuzz/replay.hpp"

__AFL_FUZZ_INIT();

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  if (argc > 1) return anvil::fuzz::replay(argc - 1, argv + 1);
#ifdef __AFL_HAVE_MANUAL_CONTROL
  __AFL_INIT();
#endif
  // Read after __AFL_INIT: the shared memory is mapped by then.
  const unsigned char* buffer = __AFL_FUZZ_TESTCASE_BUF;
  // A fresh process every 100,000 inputs bounds what a slow leak or a grown cache could do to the rate.
  while (__AFL_LOOP(100000)) LLVMFuzzerTestOneInput(buffer, __AFL_FUZZ_TESTCASE_LEN);
  return 0;
}
