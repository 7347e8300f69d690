// Harness 3, patch: a fixed corpus file (one per dialect) plus an arbitrary patch either fails cleanly
// with nothing written, or yields a file that re-reads and is unchanged outside the patched fields.
// The base files are compiled in (fuzz/CMakeLists.txt) and prepared once, before the fork server starts.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string_view>
#include <vector>

#include "fuzz/invariants.hpp"
#include "fuzz/patch_bases.hpp"

namespace {
std::vector<std::unique_ptr<anvil::fuzz::PatchCheck>> checks;
}

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  for (const anvil::fuzz::PatchBase& base : anvil::fuzz::kPatchBases) {
    const auto* embedded = std::find_if(std::begin(anvil::fuzz::kEmbeddedBases), std::end(anvil::fuzz::kEmbeddedBases),
                                        [&](const auto& e) { return std::string_view(e.name) == base.file; });
    if (embedded == std::end(anvil::fuzz::kEmbeddedBases)) {
      std::fprintf(stderr, "patch harness: %s is not compiled in (fuzz/CMakeLists.txt)\n", base.file);
      std::abort();
    }
    checks.push_back(std::make_unique<anvil::fuzz::PatchCheck>(embedded->bytes, base.game, base.data_file));
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const anvil::u8* data, std::size_t size) {
  for (const auto& check : checks)
    if (auto broken = check->check({data, size}); !broken.empty()) {
      std::fprintf(stderr, "patch invariant broken: %s\n", broken.c_str());
      std::abort();
    }
  return 0;
}
