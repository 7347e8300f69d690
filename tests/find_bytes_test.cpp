// find_bytes (reader/signature_search.hpp) against std::search, on bytes where the needle's first and
// last bytes are common, with the needle at every place near the ends of the 16-byte steps.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "reader/signature_search.hpp"

namespace anvil {
namespace {

std::optional<std::size_t> reference_find(std::span<const u8> bytes, std::span<const u8> needle) {
  auto it = std::search(bytes.begin(), bytes.end(), needle.begin(), needle.end());
  if (it == bytes.end() && !needle.empty()) return std::nullopt;
  return static_cast<std::size_t>(it - bytes.begin());
}

TEST(FindBytes, FindsWhatStdSearchFinds) {
  std::mt19937 random(7);
  for (std::size_t width : {1u, 4u, 8u, 17u}) {
    for (std::size_t size : {std::size_t{0}, width - 1, width, std::size_t{40}, std::size_t{300}}) {
      // Bytes from a small alphabet, so that partial matches are everywhere.
      std::vector<u8> bytes(size);
      for (u8& b : bytes) b = static_cast<u8>(random() % 3);
      std::vector<u8> needle(width);
      for (u8& b : needle) b = static_cast<u8>(random() % 3 + 1);  // a 3 never in the bytes: absent at first
      EXPECT_EQ(find_bytes(bytes, needle), reference_find(bytes, needle)) << width << " in " << size;
      for (std::size_t at = 0; at + width <= size; ++at) {
        std::vector<u8> planted = bytes;
        std::copy(needle.begin(), needle.end(), planted.begin() + static_cast<std::ptrdiff_t>(at));
        ASSERT_EQ(find_bytes(planted, needle), reference_find(planted, needle))
            << width << " at " << at << " of " << size;
      }
    }
  }
  std::vector<u8> some{1, 2, 3};
  EXPECT_EQ(find_bytes(some, {}), std::optional<std::size_t>(0));
}

}  // namespace
}  // namespace anvil
