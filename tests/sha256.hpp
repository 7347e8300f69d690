// SHA-256 of bytes, for the tests that pin a generated file's digest. The digest has one implementation per
// system, chosen by tests/CMakeLists.txt: OpenSSL's libcrypto on Linux (tests/posix/sha256_openssl.cpp, Debian's
// libssl-dev), Windows' own CNG in the Windows build (tests/windows/sha256_bcrypt.cpp, bcrypt.dll), which then
// needs no OpenSSL built for Windows.
#pragma once

#include <array>
#include <span>
#include <string>

#include "model/primitives.hpp"

namespace anvil::test {

using Sha256 = std::array<unsigned char, 32>;

Sha256 sha256(std::span<const u8> bytes);

// sha256(bytes) as lowercase hex.
std::string sha256_hex(std::span<const u8> bytes);

}  // namespace anvil::test
