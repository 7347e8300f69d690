// Hex and id text (model/json_text.cpp) against a plain reference, for every character in every
// position of the lengths its 16-digit blocks and scalar tail cover.
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <string>
#include <vector>

#include "model/json_text.hpp"

namespace anvil {
namespace {

std::optional<std::vector<u8>> reference_hex(const std::string& text) {
  if (text.size() % 2 != 0) return std::nullopt;
  std::vector<u8> out;
  for (std::size_t i = 0; i < text.size(); i += 2) {
    auto value = [](char c) -> int {
      if (c >= '0' && c <= '9') return c - '0';
      if (c >= 'a' && c <= 'f') return c - 'a' + 10;
      if (c >= 'A' && c <= 'F') return c - 'A' + 10;
      return -1;
    };
    int hi = value(text[i]), lo = value(text[i + 1]);
    if (hi < 0 || lo < 0) return std::nullopt;
    out.push_back(static_cast<u8>(hi << 4 | lo));
  }
  return out;
}

std::optional<std::vector<u8>> parsed_hex(const std::string& text) {
  std::vector<u8> out;
  if (!json_text::parse_hex(text, out)) return std::nullopt;
  return out;
}

TEST(JsonTextHex, EveryCharacterInEveryPositionReadsAsTheReference) {
  std::mt19937 rng(5);
  const char digits[] = "0123456789abcdefABCDEF";
  for (std::size_t length : {0, 2, 14, 16, 18, 30, 32, 34, 48, 80}) {
    std::string base;
    for (std::size_t i = 0; i < length; ++i) base += digits[rng() % 22];
    ASSERT_EQ(parsed_hex(base), reference_hex(base)) << base;
    for (std::size_t at = 0; at < length; ++at) {
      for (int c = 0; c < 256; ++c) {
        std::string text = base;
        text[at] = static_cast<char>(c);
        ASSERT_EQ(parsed_hex(text), reference_hex(text)) << length << " " << at << " " << c;
      }
    }
  }
  EXPECT_EQ(parsed_hex("abc"), std::nullopt);
}

TEST(JsonTextHex, IdsOfBothWidths) {
  EXPECT_EQ(json_text::parse_id("0x0123456789abcdef", 8), 0x0123456789abcdefULL);
  EXPECT_EQ(json_text::parse_id("0xFEDCBA9876543210", 8), 0xfedcba9876543210ULL);
  EXPECT_EQ(json_text::parse_id("0x89abcdef", 4), 0x89abcdefULL);
  EXPECT_EQ(json_text::parse_id("0x89abcdeg", 4), std::nullopt);
  EXPECT_EQ(json_text::parse_id("0x0123456789abcdeg", 8), std::nullopt);
  EXPECT_EQ(json_text::parse_id("0x0123456789abcde", 8), std::nullopt);
  EXPECT_EQ(json_text::parse_id("1x0123456789abcdef", 8), std::nullopt);
  std::mt19937_64 rng(9);
  for (int i = 0; i < 1000; ++i) {
    u64 v = rng();
    EXPECT_EQ(json_text::parse_id(json_text::format_id(v, 8), 8), v);
    EXPECT_EQ(json_text::parse_id(json_text::format_id(v & 0xffffffff, 4), 4), v & 0xffffffff);
  }
}

}  // namespace
}  // namespace anvil
