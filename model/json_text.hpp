// How field values are spelled in JSON (FORMAT.md section 4): ids as fixed-width lowercase hex, opaque
// bytes as lowercase hex, f32 in its shortest round-tripping form or as "f32:0x…" bits when not finite.
#pragma once

#include <array>
#include <bit>
#include <cstring>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "model/primitives.hpp"

namespace anvil::json_text {

// "0x" + 2*width_bytes lowercase hex digits; into `out` (kMaxIdChars at least), returning the length.
inline constexpr std::size_t kMaxIdChars = 18;
inline std::size_t format_id(char* out, u64 value, std::size_t width_bytes);
std::string format_id(u64 value, std::size_t width_bytes);
// Accepts exactly "0x" + 2*width_bytes hex digits (either case).
inline std::optional<u64> parse_id(std::string_view text, std::size_t width_bytes);

void append_hex(std::string& out, const u8* data, std::size_t size);
// Writes the 2*size lowercase hex digits of `data` at `out`.
inline void encode_hex(char* out, const u8* data, std::size_t size);
// Decodes an even number of hex digits (either case) into `out`; false on any other character.
inline bool parse_hex(std::string_view text, std::vector<u8>& out);

// A FixedString<N>'s JSON spelling (FORGE.md 1 names): the length of its text when its bytes are
// printable ASCII other than `"` and `\` followed only by NULs, else kNotText (then it is 2N hex digits).
inline constexpr std::size_t kNotText = ~std::size_t{0};
std::size_t fixed_string_text(const u8* data, std::size_t size);
// Reads either spelling back into `size` bytes at `out`; false when `text` is neither.
bool parse_fixed_string(std::string_view text, u8* out, std::size_t size);

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

#if defined(__SSE2__)
// The 16 lowercase hex digits of the 8 bytes in the low half of `x`, in their order: each byte's
// nibbles interleaved high first, then each nibble n made '0' + n, plus 'a' - '0' - 10 when n > 9.
inline __m128i hex_digits16(__m128i x) {
  const __m128i nibble = _mm_set1_epi8(0x0F);
  __m128i n = _mm_unpacklo_epi8(_mm_and_si128(_mm_srli_epi16(x, 4), nibble), _mm_and_si128(x, nibble));
  __m128i letters = _mm_and_si128(_mm_cmpgt_epi8(n, _mm_set1_epi8(9)), _mm_set1_epi8('a' - '0' - 10));
  return _mm_add_epi8(_mm_add_epi8(n, _mm_set1_epi8('0')), letters);
}
#endif

// The value of each hex digit, -1 for any other character.
inline constexpr std::array<signed char, 256> kHexValue = [] {
  std::array<signed char, 256> t{};
  t.fill(-1);
  for (int c = '0'; c <= '9'; ++c) t[c] = static_cast<signed char>(c - '0');
  for (int c = 'a'; c <= 'f'; ++c) t[c] = static_cast<signed char>(c - 'a' + 10);
  for (int c = 'A'; c <= 'F'; ++c) t[c] = static_cast<signed char>(c - 'A' + 10);
  return t;
}();

inline int hex_value(char c) { return kHexValue[static_cast<unsigned char>(c)]; }

}  // namespace detail

// Decodes `2 * n` hex digits at `in` into n bytes at `out`, false on any other character; what
// parse_id and parse_hex spend their time in (ids are 16 digits, opaque runs tens to thousands).
[[gnu::always_inline]] inline bool decode_hex(const char* in, std::size_t n, u8* out) {
  int bad = 0;
#if defined(__SSE2__)
  // 16 digits at a time: check the ranges, map each digit to its value, join the pairs.
  for (; n >= 8; n -= 8, in += 16, out += 8) {
    __m128i c = _mm_loadu_si128(reinterpret_cast<const __m128i*>(in));
    __m128i lower = _mm_or_si128(c, _mm_set1_epi8(0x20));  // '0'..'9' keep their code
    __m128i digit = _mm_and_si128(_mm_cmpgt_epi8(c, _mm_set1_epi8('0' - 1)), _mm_cmplt_epi8(c, _mm_set1_epi8('9' + 1)));
    __m128i letter =
        _mm_and_si128(_mm_cmpgt_epi8(lower, _mm_set1_epi8('a' - 1)), _mm_cmplt_epi8(lower, _mm_set1_epi8('f' + 1)));
    if (_mm_movemask_epi8(_mm_or_si128(digit, letter)) != 0xFFFF) return false;
    __m128i value = _mm_or_si128(_mm_and_si128(digit, _mm_sub_epi8(c, _mm_set1_epi8('0'))),
                                 _mm_andnot_si128(digit, _mm_sub_epi8(lower, _mm_set1_epi8('a' - 10))));
    // Each 16-bit lane holds a pair, first digit low: (first << 4) | second, then one byte per lane.
    __m128i pairs =
        _mm_or_si128(_mm_slli_epi16(_mm_and_si128(value, _mm_set1_epi16(0x00FF)), 4), _mm_srli_epi16(value, 8));
    _mm_storel_epi64(reinterpret_cast<__m128i*>(out), _mm_packus_epi16(pairs, pairs));
  }
#endif
  for (std::size_t i = 0; i < n; ++i) {
    int hi = detail::hex_value(in[2 * i]), lo = detail::hex_value(in[2 * i + 1]);
    bad |= hi | lo;
    out[i] = static_cast<u8>((hi & 0xF) << 4 | (lo & 0xF));
  }
  return bad >= 0;
}

inline std::optional<u64> parse_id(std::string_view text, std::size_t width_bytes) {
  if (width_bytes > 8 || text.size() != 2 + 2 * width_bytes || text[0] != '0' || text[1] != 'x') return std::nullopt;
  u8 bytes[8];
  if (!decode_hex(text.data() + 2, width_bytes, bytes)) return std::nullopt;
  u64 value = 0;
  for (std::size_t i = 0; i < width_bytes; ++i) value = value << 8 | bytes[i];
  return value;
}

inline bool parse_hex(std::string_view text, std::vector<u8>& out) {
  if (text.size() % 2 != 0) return false;
  out.resize(text.size() / 2);
  return decode_hex(text.data(), out.size(), out.data());
}

inline void encode_hex(char* out, const u8* data, std::size_t size) {
  constexpr char digits[] = "0123456789abcdef";
  std::size_t i = 0;
#if defined(__SSE2__)
  for (; i + 8 <= size; i += 8)
    _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2 * i),
                     detail::hex_digits16(_mm_loadl_epi64(reinterpret_cast<const __m128i*>(data + i))));
#endif
  if constexpr (std::endian::native == std::endian::little) {
    for (; i + 4 <= size; i += 4) {
      u32 bytes;
      std::memcpy(&bytes, data + i, 4);
      u64 text = detail::hex_digits4(bytes);
      std::memcpy(out + 2 * i, &text, 8);
    }
  }
  for (; i < size; ++i) {
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
#if defined(__SSE2__)
      _mm_storeu_si128(reinterpret_cast<__m128i*>(out + 2),
                       detail::hex_digits16(_mm_cvtsi64_si128(static_cast<long long>(__builtin_bswap64(value)))));
#else
      digits4(2, static_cast<u32>(value >> 32));
      digits4(10, static_cast<u32>(value));
#endif
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
