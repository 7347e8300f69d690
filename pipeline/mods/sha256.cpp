#include "pipeline/mods/sha256.hpp"

#include "platform/sha256.hpp"

namespace anvil::mods {

std::string sha256_hex(std::span<const std::span<const u8>> pieces) {
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out;
  for (std::uint8_t byte : platform::sha256(pieces)) {
    out.push_back(kHex[byte >> 4]);
    out.push_back(kHex[byte & 15]);
  }
  return out;
}

}  // namespace anvil::mods
