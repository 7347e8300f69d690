// Harness 4, dump: `dump --full` of any bytes parses as JSON and builds back to the same bytes.
#include <cstdio>
#include <cstdlib>

#include "fuzz/invariants.hpp"

extern "C" int LLVMFuzzerTestOneInput(const anvil::u8* data, std::size_t size) {
  if (auto broken = anvil::fuzz::check_dump({data, size}); !broken.empty()) {
    std::fprintf(stderr, "dump invariant broken: %s\n", broken.c_str());
    std::abort();
  }
  return 0;
}
