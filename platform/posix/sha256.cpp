// platform/sha256.hpp on POSIX: OpenSSL's libcrypto (EVP), Debian's libssl-dev.
#include "platform/sha256.hpp"

#include <openssl/evp.h>

#include <memory>
#include <new>
#include <stdexcept>

namespace anvil::platform {

Sha256Digest sha256(std::span<const std::span<const std::uint8_t>> pieces) {
  std::unique_ptr<EVP_MD_CTX, decltype(&EVP_MD_CTX_free)> ctx(EVP_MD_CTX_new(), EVP_MD_CTX_free);
  if (!ctx || EVP_DigestInit_ex(ctx.get(), EVP_sha256(), nullptr) != 1) throw std::bad_alloc();
  for (std::span<const std::uint8_t> piece : pieces)
    if (!piece.empty() && EVP_DigestUpdate(ctx.get(), piece.data(), piece.size()) != 1)
      throw std::runtime_error("SHA-256 failed");
  Sha256Digest digest{};
  unsigned size = 0;
  if (EVP_DigestFinal_ex(ctx.get(), digest.data(), &size) != 1 || size != digest.size())
    throw std::runtime_error("SHA-256 failed");
  return digest;
}

}  // namespace anvil::platform
