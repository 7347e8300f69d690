// SHA-256 of an archive, for a mod's `made_for` (docs/mods.md), as lowercase hex: the digest is the
// system's (platform/sha256.hpp).
#pragma once

#include <span>
#include <string>
#include <vector>

#include "model/primitives.hpp"

namespace anvil::mods {

// The lowercase hex SHA-256 of the concatenation of `pieces`, in order.
std::string sha256_hex(std::span<const std::span<const u8>> pieces);

}  // namespace anvil::mods
