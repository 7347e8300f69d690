#include "codec/checksums.hpp"

#include <libdeflate.h>

namespace anvil::codec {

std::uint32_t adler32(std::uint32_t start, std::span<const std::uint8_t> bytes) {
  // libdeflate answers 1 for a null pointer, whatever the start: the sum of no bytes is the start.
  if (bytes.empty()) return start;
  return libdeflate_adler32(start, bytes.data(), bytes.size());
}

std::uint32_t crc32(std::uint32_t start, std::span<const std::uint8_t> bytes) {
  return bytes.empty() ? start : libdeflate_crc32(start, bytes.data(), bytes.size());
}

std::uint32_t adler32_started_at_1(std::uint32_t from_zero, std::size_t size) {
  constexpr std::uint32_t kBase = 65521;
  const std::uint32_t a = ((from_zero & 0xFFFF) + 1) % kBase;
  const std::uint32_t b = static_cast<std::uint32_t>(((from_zero >> 16) + size % kBase) % kBase);
  return (b << 16) | a;
}

}  // namespace anvil::codec
