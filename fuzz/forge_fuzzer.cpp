// Harness 5, forge: `.forge` archives read, written back, and written back with an edit
// (fuzz/forge_invariants.hpp).
#include <cstdio>
#include <cstdlib>

#include "fuzz/forge_invariants.hpp"

extern "C" int LLVMFuzzerTestOneInput(const anvil::u8* data, std::size_t size) {
  if (auto broken = anvil::fuzz::check_forge({data, size}); !broken.empty()) {
    std::fprintf(stderr, "forge invariant broken: %s\n", broken.c_str());
    std::abort();
  }
  return 0;
}
