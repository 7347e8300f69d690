// Harness 2, json: `build` on arbitrary JSON fails cleanly or yields bytes that re-read into an equal model.
#include <cstdio>
#include <cstdlib>

#include "fuzz/invariants.hpp"

extern "C" int LLVMFuzzerTestOneInput(const anvil::u8* data, std::size_t size) {
  if (auto broken = anvil::fuzz::check_json({data, size}); !broken.empty()) {
    std::fprintf(stderr, "json invariant broken: %s\n", broken.c_str());
    std::abort();
  }
  return 0;
}
