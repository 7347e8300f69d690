// The LZO codec of a `.forge` block set's compression (FORGE.md 2), for the reader, the repacker and
// verify --recompress alike.
#pragma once

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

}  // namespace anvil::codec
