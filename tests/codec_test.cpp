// The codec's Adler-32 (codec/lzo.hpp, libdeflate's vectorised one) against the definition written out
// byte by byte, from both starts the rules of FORGE.md 2 use, at unaligned offsets and over sizes around
// the modulus and the vector loops' block lengths; and the Adler-32 started at 1, derived from the one
// started at 0, equal to a pass started at 1.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <span>
#include <string_view>
#include <vector>

#include "codec/checksums.hpp"
#include "codec/lzo.hpp"

namespace anvil::codec {
namespace {

// RFC 1950's definition, one byte at a time.
std::uint32_t adler32_by_definition(std::uint32_t start, std::span<const std::uint8_t> bytes) {
  std::uint64_t a = start & 0xFFFF, b = start >> 16;
  for (std::uint8_t byte : bytes) {
    a = (a + byte) % 65521;
    b = (b + a) % 65521;
  }
  return static_cast<std::uint32_t>(b << 16 | a);
}

TEST(LzoCodec, Adler32IsTheDefinition) {
  const std::string_view wikipedia = "Wikipedia";
  EXPECT_EQ(adler32(1, std::span(reinterpret_cast<const std::uint8_t*>(wikipedia.data()), wikipedia.size())),
            0x11E60398u);
  std::mt19937 random(11);
  std::vector<std::uint8_t> bytes((1 << 20) + 64);
  for (auto& b : bytes) b = static_cast<std::uint8_t>(random());
  for (std::size_t size : {0, 1, 31, 32, 33, 63, 64, 65, 5551, 5552, 5553, 65521, 300000, 1 << 20}) {
    for (std::size_t skew : {0, 1, 7, 33}) {
      const std::span<const std::uint8_t> run(bytes.data() + skew, size);
      for (std::uint32_t start : {0u, 1u, 0xFFF0FFF0u}) {
        EXPECT_EQ(adler32(start, run), adler32_by_definition(start, run)) << size << " bytes at +" << skew;
      }
    }
  }
  std::vector<std::uint8_t> high(200000, 0xFF);  // the largest sums
  EXPECT_EQ(adler32(0, high), adler32_by_definition(0, high));
}

TEST(LzoCodec, Adler32StartedAt1FromTheOneStartedAt0) {
  std::mt19937 random(7);
  for (std::size_t size : {0, 1, 2, 5551, 5552, 5553, 65520, 65521, 65522, 200000, 1 << 20}) {
    std::vector<std::uint8_t> bytes(size);
    for (auto& b : bytes) b = static_cast<std::uint8_t>(random());
    EXPECT_EQ(adler32_started_at_1(adler32(0, bytes), size), adler32(1, bytes)) << size << " random bytes";
    std::vector<std::uint8_t> high(size, 0xFF);  // the largest sums
    EXPECT_EQ(adler32_started_at_1(adler32(0, high), size), adler32(1, high)) << size << " bytes of 0xff";
  }
}

}  // namespace
}  // namespace anvil::codec
