// SHA-256 through a maintained implementation (a mod's `made_for`, docs/mods.md; the tests' pinned
// digests): Nettle on POSIX, Windows' CNG (bcrypt.dll) on Windows, so that the Windows build needs no
// cryptography library built for it.
#pragma once

#include <array>
#include <cstdint>
#include <span>

namespace anvil::platform {

using Sha256Digest = std::array<std::uint8_t, 32>;

// The SHA-256 of the concatenation of `pieces`, in order; std::runtime_error when the system's hash fails.
Sha256Digest sha256(std::span<const std::span<const std::uint8_t>> pieces);

}  // namespace anvil::platform
