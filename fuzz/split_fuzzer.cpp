// Harness 1b, split: the carve in parts (reader/split_carve.hpp) is the one carve, in each dialect.
#include <cstdio>
#include <cstdlib>

#include "fuzz/invariants.hpp"

extern "C" int LLVMFuzzerTestOneInput(const anvil::u8* data, std::size_t size) {
  if (auto broken = anvil::fuzz::check_split_carve({data, size}); !broken.empty()) {
    std::fprintf(stderr, "split carve invariant broken: %s\n", broken.c_str());
    std::abort();
  }
  return 0;
}
