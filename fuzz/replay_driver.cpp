// The plain driver: `TARGET_fuzzer PATH...` runs each file (folders: every file in them) once through the
// harness. No fuzzing engine: for the coverage build (fuzz/coverage.sh) and for profiling one execution.
#include "fuzz/replay.hpp"

int main(int argc, char** argv) {
  if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
  return anvil::fuzz::replay(argc - 1, argv + 1);
}
