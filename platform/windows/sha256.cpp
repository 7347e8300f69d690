// platform/sha256.hpp on Windows: CNG's BCryptCreateHash/BCryptHashData/BCryptFinishHash (bcrypt.dll).
// windows.h first: bcrypt.h uses its types.
// clang-format off
#include <windows.h>
#include <bcrypt.h>
// clang-format on

#include "platform/sha256.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

namespace anvil::platform {

namespace {

void check(NTSTATUS status) {
  if (!BCRYPT_SUCCESS(status)) throw std::runtime_error("SHA-256 failed (BCrypt)");
}

// The algorithm and hash handles, closed on every path.
struct Sha256Handles {
  BCRYPT_ALG_HANDLE algorithm = nullptr;
  BCRYPT_HASH_HANDLE hash = nullptr;
  ~Sha256Handles() {
    if (hash) ::BCryptDestroyHash(hash);
    if (algorithm) ::BCryptCloseAlgorithmProvider(algorithm, 0);
  }
};

}  // namespace

Sha256Digest sha256(std::span<const std::span<const std::uint8_t>> pieces) {
  Sha256Handles handles;
  check(::BCryptOpenAlgorithmProvider(&handles.algorithm, BCRYPT_SHA256_ALGORITHM, nullptr, 0));
  check(::BCryptCreateHash(handles.algorithm, &handles.hash, nullptr, 0, nullptr, 0, 0));
  for (std::span<const std::uint8_t> piece : pieces) {
    // BCryptHashData takes a ULONG count: a larger piece is hashed in parts.
    for (std::size_t done = 0; done < piece.size();) {
      const ULONG part =
          static_cast<ULONG>(std::min<std::size_t>(piece.size() - done, std::numeric_limits<ULONG>::max()));
      check(::BCryptHashData(handles.hash, const_cast<PUCHAR>(piece.data() + done), part, 0));
      done += part;
    }
  }
  Sha256Digest digest{};
  check(::BCryptFinishHash(handles.hash, digest.data(), static_cast<ULONG>(digest.size()), 0));
  return digest;
}

}  // namespace anvil::platform
