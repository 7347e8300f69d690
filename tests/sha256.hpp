// SHA-256 of bytes as lowercase hex, for the tests that pin a generated file's digest: the system's digest
// (platform/sha256.hpp) through the one the mods' `made_for` uses (pipeline/mods/sha256.hpp).
#pragma once

#include <span>
#include <string>

#include "model/primitives.hpp"

namespace anvil::test {

std::string sha256_hex(std::span<const u8> bytes);

}  // namespace anvil::test
