#include <openssl/evp.h>

#include "tests/sha256.hpp"

namespace anvil::test {

Sha256 sha256(std::span<const u8> bytes) {
  Sha256 digest{};
  unsigned int size = 0;
  EVP_Digest(bytes.data(), bytes.size(), digest.data(), &size, EVP_sha256(), nullptr);
  return digest;
}

}  // namespace anvil::test
