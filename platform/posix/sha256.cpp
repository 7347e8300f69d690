// platform/sha256.hpp on POSIX: Nettle's (Debian's nettle-dev; SHA-NI where the CPU has it, chosen at run
// time).
#include "platform/sha256.hpp"

#include <nettle/sha2.h>

namespace anvil::platform {

Sha256Digest sha256(std::span<const std::span<const std::uint8_t>> pieces) {
  sha256_ctx context;
  sha256_init(&context);
  for (std::span<const std::uint8_t> piece : pieces) sha256_update(&context, piece.size(), piece.data());
  Sha256Digest digest{};
  sha256_digest(&context, digest.size(), digest.data());
  return digest;
}

}  // namespace anvil::platform
