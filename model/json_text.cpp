#include "model/json_text.hpp"

#include <absl/strings/str_format.h>

#include <array>
#include <bit>
#include <charconv>
#include <cmath>

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

}  // namespace

std::string format_id(u64 value, std::size_t width_bytes) {
  char buf[kMaxIdChars];
  return {buf, format_id(buf, value, width_bytes)};
}

std::optional<u64> parse_id(std::string_view text, std::size_t width_bytes) {
  if (text.size() != 2 + 2 * width_bytes || text[0] != '0' || text[1] != 'x') return std::nullopt;
  u64 value = 0;
  int bad = 0;
  for (char c : text.substr(2)) {
    int v = hex_value(c);
    bad |= v;
    value = (value << 4) | static_cast<u64>(v & 0xF);
  }
  if (bad < 0) return std::nullopt;
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
  int bad = 0;
  for (std::size_t i = 0; i < out.size(); ++i) {
    int hi = hex_value(text[2 * i]), lo = hex_value(text[2 * i + 1]);
    bad |= hi | lo;
    out[i] = static_cast<u8>((hi & 0xF) << 4 | (lo & 0xF));
  }
  return bad >= 0;
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
