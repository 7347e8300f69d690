#include "tests/sha256.hpp"

#include "pipeline/mods/sha256.hpp"

namespace anvil::test {

std::string sha256_hex(std::span<const u8> bytes) {
  const std::span<const u8> pieces[] = {bytes};
  return mods::sha256_hex(pieces);
}

}  // namespace anvil::test
