// How field values are spelled in JSON (FORMAT.md section 4): ids as fixed-width lowercase hex, opaque
// bytes as lowercase hex, f32 in its shortest round-tripping form or as "f32:0x…" bits when not finite.
#pragma once

#include <bit>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/primitives.hpp"

namespace anvil::json_text {

// "0x" + 2*width_bytes lowercase hex digits; into `out` (kMaxIdChars at least), returning the length.
inline constexpr std::size_t kMaxIdChars = 18;
inline std::size_t format_id(char* out, u64 value, std::size_t width_bytes);
std::string format_id(u64 value, std::size_t width_bytes);
// Accepts exactly "0x" + 2*width_bytes hex digits (either case).
std::optional<u64> parse_id(std::string_view text, std::size_t width_bytes);

void append_hex(std::string& out, const u8* data, std::size_t size);
// Writes the 2*size lowercase hex digits of `data` at `out`.
inline void encode_hex(char* out, const u8* data, std::size_t size);
// Decodes an even number of hex digits (either case) into `out`; false on any other character.
bool parse_hex(std::string_view text, std::vector<u8>& out);

// Appends the shortest decimal that reads back as the same f32, as a JSON number ("-0.0" for
// negative zero, so that JSON parsers that read "-0" as the integer 0 keep the sign). Finite only.
void append_f32(std::string& out, f32 value);
// "f32:0x7fc00000": the spelling of a NaN or an infinity.
std::string format_f32_bits(f32 value);
std::optional<f32> parse_f32_bits(std::string_view text);

namespace detail {

// The 8 lowercase hex digits of 4 bytes (a little-endian load of them), in their order, as 8 bytes
// of a little-endian word: each byte spread to 16 bits, its nibbles swapped into reading order, then
// each nibble n made '0' + n, plus 'a' - '0' - 10 when n > 9 (n + 6 carries into bit 4).
inline u64 hex_digits4(u32 bytes) {
  u64 x = bytes;
  x = (x | x << 16) & 0x0000FFFF0000FFFFull;
  x = (x | x << 8) & 0x00FF00FF00FF00FFull;
  x = (x >> 4 & 0x000F000F000F000Full) | (x & 0x000F000F000F000Full) << 8;
  u64 above_nine = (x + 0x0606060606060606ull) >> 4 & 0x0101010101010101ull;
  return x + 0x3030303030303030ull + above_nine * ('a' - '0' - 10);
}

}  // namespace detail

inline void encode_hex(char* out, const u8* data, std::size_t size) {
  constexpr char digits[] = "0123456789abcdef";
  std::size_t words = std::endian::native == std::endian::little ? size / 4 : 0;
  for (std::size_t w = 0; w < words; ++w) {
    u32 bytes;
    std::memcpy(&bytes, data + 4 * w, 4);
    u64 text = detail::hex_digits4(bytes);
    std::memcpy(out + 8 * w, &text, 8);
  }
  for (std::size_t i = 4 * words; i < size; ++i) {
    out[2 * i] = digits[data[i] >> 4];
    out[2 * i + 1] = digits[data[i] & 0xF];
  }
}

inline std::size_t format_id(char* out, u64 value, std::size_t width_bytes) {
  std::size_t size = 2 + 2 * width_bytes;
  out[0] = '0';
  out[1] = 'x';
  if constexpr (std::endian::native == std::endian::little) {
    // The digits of 4 bytes, most significant first: a byte-swapped u32 in hex_digits4.
    auto digits4 = [&](std::size_t at, u32 part) {
      u64 text = detail::hex_digits4(__builtin_bswap32(part));
      std::memcpy(out + at, &text, 8);
    };
    if (width_bytes == 8) {
      digits4(2, static_cast<u32>(value >> 32));
      digits4(10, static_cast<u32>(value));
      return size;
    }
    if (width_bytes == 4) {
      digits4(2, static_cast<u32>(value));
      return size;
    }
  }
  constexpr char digits[] = "0123456789abcdef";
  for (std::size_t i = size; i > 2; --i, value >>= 4) out[i - 1] = digits[value & 0xF];
  return size;
}

}  // namespace anvil::json_text
