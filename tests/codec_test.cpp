// The LZO codec's checksum helper (codec/lzo.hpp): the Adler-32 started at 1, derived from the one
// started at 0, equals liblzo2's own pass started at 1, over sizes around its modulus and block length.
#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <vector>

#include "codec/lzo.hpp"

namespace anvil::codec {
namespace {

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
