// clang-format off: windows.h first, bcrypt.h uses its types.
#include <windows.h>
#include <bcrypt.h>
// clang-format on

#include "tests/sha256.hpp"

namespace anvil::test {

// A failure leaves the digest zero, which no pinned digest equals.
Sha256 sha256(std::span<const u8> bytes) {
  Sha256 digest{};
  BCRYPT_ALG_HANDLE algorithm = nullptr;
  if (BCryptOpenAlgorithmProvider(&algorithm, BCRYPT_SHA256_ALGORITHM, nullptr, 0) != 0) return digest;
  BCryptHash(algorithm, nullptr, 0, const_cast<PUCHAR>(bytes.data()), static_cast<ULONG>(bytes.size()),
             digest.data(), static_cast<ULONG>(digest.size()));
  BCryptCloseAlgorithmProvider(algorithm, 0);
  return digest;
}

}  // namespace anvil::test
