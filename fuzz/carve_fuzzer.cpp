// Harness 1, carve: write(read(x)) == x for any bytes, in each dialect and `auto`.
#include <cstdio>
#include <cstdlib>

#include "fuzz/invariants.hpp"

extern "C" int LLVMFuzzerTestOneInput(const anvil::u8* data, std::size_t size) {
  if (auto broken = anvil::fuzz::check_carve({data, size}); !broken.empty()) {
    std::fprintf(stderr, "carve invariant broken: %s\n", broken.c_str());
    std::abort();
  }
  return 0;
}
