#include "tests/sha256.hpp"

namespace anvil::test {

std::string sha256_hex(std::span<const u8> bytes) {
  static constexpr char digits[] = "0123456789abcdef";
  std::string hex;
  for (unsigned char byte : sha256(bytes)) {
    hex += digits[byte >> 4];
    hex += digits[byte & 15];
  }
  return hex;
}

}  // namespace anvil::test
