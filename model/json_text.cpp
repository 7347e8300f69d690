#include "model/json_text.hpp"

#include <absl/strings/str_format.h>

#include <array>
#include <bit>
#include <charconv>
#include <cmath>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

namespace anvil::json_text {
namespace {

// The value of each hex digit, -1 for any other character.
constexpr std::array<signed char, 256> kHexValue = [] {
  std::array<signed char, 256> t{};
  t.fill(-1);
  for (int c = '0'; c <= '9'; ++c) t[c] = static_cast<signed char>(c - '0');
  for (int c = 'a'; c <= 'f'; ++c) t[c] = static_cast<signed char>(c - 'a' + 10);
  for (int c = 'A'; c <= 'F'; ++c) t[c] = static_cast<signed char>(c - 'A' + 10);
  return t;
}();

int hex_value(char c) { return kHexValue[static_cast<unsigned char>(c)]; }

// Decodes `2 * n` hex digits at `in` into n bytes at `out`, false on any other character; what
// parse_id and parse_hex spend their time in (ids are 16 digits, opaque runs tens to thousands).
bool decode_hex(const char* in, std::size_t n, u8* out) {
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
    int hi = hex_value(in[2 * i]), lo = hex_value(in[2 * i + 1]);
    bad |= hi | lo;
    out[i] = static_cast<u8>((hi & 0xF) << 4 | (lo & 0xF));
  }
  return bad >= 0;
}

}  // namespace

std::string format_id(u64 value, std::size_t width_bytes) {
  char buf[kMaxIdChars];
  return {buf, format_id(buf, value, width_bytes)};
}

std::optional<u64> parse_id(std::string_view text, std::size_t width_bytes) {
  if (width_bytes > 8 || text.size() != 2 + 2 * width_bytes || text[0] != '0' || text[1] != 'x') return std::nullopt;
  u8 bytes[8];
  if (!decode_hex(text.data() + 2, width_bytes, bytes)) return std::nullopt;
  u64 value = 0;
  for (std::size_t i = 0; i < width_bytes; ++i) value = value << 8 | bytes[i];
  return value;
}

void append_hex(std::string& out, const u8* data, std::size_t size) {
  std::size_t at = out.size();
  out.resize(at + 2 * size);
  encode_hex(out.data() + at, data, size);
}

bool parse_hex(std::string_view text, std::vector<u8>& out) {
  if (text.size() % 2 != 0) return false;
  out.resize(text.size() / 2);
  return decode_hex(text.data(), out.size(), out.data());
}

void append_f32(std::string& out, f32 value) {
  if (value == 0 && std::signbit(value)) {
    out += "-0.0";
    return;
  }
  char buf[32];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, value);
  out.append(buf, end);
}

std::string format_f32_bits(f32 value) { return absl::StrFormat("f32:0x%08x", std::bit_cast<u32>(value)); }

std::optional<f32> parse_f32_bits(std::string_view text) {
  if (!text.starts_with("f32:")) return std::nullopt;
  auto bits = parse_id(text.substr(4), 4);
  if (!bits) return std::nullopt;
  return std::bit_cast<f32>(static_cast<u32>(*bits));
}

}  // namespace anvil::json_text
