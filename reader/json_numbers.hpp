// The JSON numbers that RapidJSON 1.1.0 (Debian 12's rapidjson-dev) misreads with
// kParseFullPrecisionFlag, found by fuzzing (docs/fuzzing.md). Its StrtodDiyFp normalizes a zero
// significand with __builtin_clzll(0) (undefined; in practice a wild value): that happens for a zero
// that misses the fast path ("0E+222" reads as 4.5e220, "0.0000000000000000000000000" likewise) and
// for digits starting 18446744073709551615 followed by a digit >= 5, where the rounding increment wraps
// the u64 significand to 0 ("184467440737095516159" reads as -2.0e264, "0.184467440737095516159" as
// -6.5e-201). Such text is refused before it is parsed, with the offset of the number.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace anvil {

// The offset of the first number token outside strings that RapidJSON 1.1.0 would misread, if any.
// Conservative: a zero with an exponent or with more than 22 digits is refused too.
inline std::optional<std::size_t> misread_json_number(std::string_view text) {
  auto digit = [](char c) { return c >= '0' && c <= '9'; };
  bool in_string = false;
  for (std::size_t i = 0; i < text.size(); ++i) {
    char c = text[i];
    if (in_string) {
      if (c == '\\')
        ++i;
      else if (c == '"')
        in_string = false;
      continue;
    }
    if (c == '"') {
      in_string = true;
      continue;
    }
    if (!digit(c) && c != '-') continue;
    std::size_t start = i;
    if (text[i] == '-') ++i;
    std::string digits;  // integer and fraction digits, without the point
    while (i < text.size() && digit(text[i])) digits += text[i++];
    if (i < text.size() && text[i] == '.')
      for (++i; i < text.size() && digit(text[i]);) digits += text[i++];
    bool exponent = i < text.size() && (text[i] == 'e' || text[i] == 'E');
    if (exponent) {
      ++i;
      if (i < text.size() && (text[i] == '+' || text[i] == '-')) ++i;
      while (i < text.size() && digit(text[i])) ++i;
    }
    std::size_t first = digits.find_first_not_of('0');
    if (first == std::string::npos) {
      if (exponent || digits.size() > 22) return start;
    } else if (digits.size() - first > 20 && digits.compare(first, 20, "18446744073709551615") == 0 &&
               digits[first + 20] >= '5') {
      return start;
    }
    --i;  // the character after the token is looked at again
  }
  return std::nullopt;
}

}  // namespace anvil
