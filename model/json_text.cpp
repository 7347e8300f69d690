#include "model/json_text.hpp"

#include <absl/strings/str_format.h>

#include <array>
#include <bit>
#include <charconv>
#include <cmath>

namespace anvil::json_text {
std::string format_id(u64 value, std::size_t width_bytes) {
  char buf[kMaxIdChars];
  return {buf, format_id(buf, value, width_bytes)};
}

void append_hex(std::string& out, const u8* data, std::size_t size) {
  std::size_t at = out.size();
  out.resize(at + 2 * size);
  encode_hex(out.data() + at, data, size);
}

namespace {
bool plain_char(u8 c) { return c >= 0x20 && c < 0x7f && c != '"' && c != '\\'; }
}  // namespace

std::size_t fixed_string_text(const u8* data, std::size_t size) {
  std::size_t text = 0;
  while (text < size && data[text] != 0) {
    if (!plain_char(data[text])) return kNotText;
    ++text;
  }
  for (std::size_t i = text; i < size; ++i)
    if (data[i] != 0) return kNotText;
  return text;
}

bool parse_fixed_string(std::string_view text, u8* out, std::size_t size) {
  if (text.size() == 2 * size) {
    std::vector<u8> bytes;
    if (!parse_hex(text, bytes)) return false;
    std::copy(bytes.begin(), bytes.end(), out);
    return true;
  }
  if (text.size() > size) return false;
  for (char c : text)
    if (!plain_char(static_cast<u8>(c))) return false;
  std::memcpy(out, text.data(), text.size());
  std::memset(out + text.size(), 0, size - text.size());
  return true;
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
