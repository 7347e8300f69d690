// platform/random.hpp on Windows: BCryptGenRandom with the system's preferred generator (no algorithm
// handle to open or close).
// windows.h first: bcrypt.h uses its types.
// clang-format off
#include <windows.h>
#include <bcrypt.h>
// clang-format on

#include "platform/random.hpp"

#include <absl/strings/str_cat.h>

#include <algorithm>
#include <limits>

namespace anvil::platform {

absl::StatusOr<std::vector<std::uint8_t>> secure_random_bytes(std::size_t count) {
  std::vector<std::uint8_t> bytes(count);
  std::size_t done = 0;
  while (done < count) {
    // BCryptGenRandom takes a ULONG count: more is asked for in pieces.
    const ULONG piece = static_cast<ULONG>(std::min<std::size_t>(count - done, std::numeric_limits<ULONG>::max()));
    const NTSTATUS status = ::BCryptGenRandom(nullptr, bytes.data() + done, piece, BCRYPT_USE_SYSTEM_PREFERRED_RNG);
    if (!BCRYPT_SUCCESS(status))
      return absl::InternalError(absl::StrCat("cannot read random bytes: BCryptGenRandom failed (NTSTATUS 0x",
                                              absl::Hex(static_cast<unsigned long>(status)), ")"));
    done += piece;
  }
  return bytes;
}

}  // namespace anvil::platform
