// The LZO codec of a `.forge` block set's compression (FORGE.md 2), for the reader, the repacker and
// verify --recompress alike.
#pragma once

#include "codec/checksums.hpp"
#include "codec/lzo.hpp"
#include "model/forge/archive.hpp"

namespace anvil::codec {

// plain (and an unknown id) has no codec of its own: its blocks are LZO1X where compressed.
inline Algorithm algorithm_of(forge::Compression c) {
  switch (c) {
    case forge::Compression::lzo2a:
      return Algorithm::lzo2a;
    case forge::Compression::lzo1c:
      return Algorithm::lzo1c;
    default:
      return Algorithm::lzo1x;
  }
}

// The checksum of a block by `rule` (FORGE.md 2): its bytes as stored, or decompressed.
inline std::uint32_t checksum_by(forge::ChecksumRule rule, std::span<const std::uint8_t> stored,
                                 std::span<const std::uint8_t> decoded) {
  switch (rule) {
    case forge::ChecksumRule::adler32_0_stored:
      return adler32(0, stored);
    case forge::ChecksumRule::adler32_1_stored:
      return adler32(1, stored);
    case forge::ChecksumRule::adler32_0_decoded:
      return adler32(0, decoded);
    case forge::ChecksumRule::adler32_1_decoded:
      return adler32(1, decoded);
  }
  return 0;
}

}  // namespace anvil::codec
