// Harness 3, patch: a fixed corpus file (one per dialect) plus an arbitrary patch either fails cleanly
// with nothing written, or yields a file that re-reads and is unchanged outside the patched fields.
#include <cstdio>
#include <cstdlib>

#include "fuzz/invariants.hpp"

extern "C" int LLVMFuzzerTestOneInput(const anvil::u8* data, std::size_t size) {
  if (auto broken = anvil::fuzz::check_patch_on_corpus({data, size}, ANVILRT_CORPUS); !broken.empty()) {
    std::fprintf(stderr, "patch invariant broken: %s\n", broken.c_str());
    std::abort();
  }
  return 0;
}
