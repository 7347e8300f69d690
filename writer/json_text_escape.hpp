// The string scanning of the compact JSON text writer (writer/json_text_handler.hpp): which bytes need
// escaping, found a word at a time; short copies as overlapping words; and the escape sequences, as
// RapidJSON writes them (`\"`, `\\`, `\b \t \n \f \r`, other control characters `\u00XX` in upper-case
// hex; every other byte as is). tests/json_text_handler_test.cpp checks every byte at every position
// of the word-check lengths against rapidjson::Writer.
//
// Reference and fast path (writing): rapidjson::Writer's text, and JsonWriter into a RapidJSON Document
// (the route of patch and diff), are the reference; JsonTextHandler (writer/json_text_handler.hpp, its
// string scanning in writer/json_text_escape.hpp) with JsonWriter's direct Float/HexString/IdString/
// PlainKey is the fast path, which must print the same bytes. They are kept in agreement by
// tests/json_text_handler_test.cpp (JsonTextHandler.RandomEventsAsRapidJson,
// .EveryByteAtEveryPositionAmongOthers, .DocumentAcceptAsRapidJson,
// .JsonWriterDirectEmissionMatchesTheDocumentRoute and the rest) and, for the hex and id digits
// (model/json_text.hpp), tests/json_text_hex_test.cpp.
#pragma once

#include <cstddef>
#include <cstdint>
#include <cstring>

namespace anvil {

namespace json_text_detail {

// Whether any of the 8 bytes of `w` is a control character, '"' or '\\' (the bytes RapidJSON escapes).
inline bool any_needs_escape(std::uint64_t w) {
  constexpr std::uint64_t ones = 0x0101010101010101, highs = 0x8080808080808080;
  auto has_zero = [](std::uint64_t x) { return (x - ones) & ~x & highs; };
  std::uint64_t below_space = (w - 0x20 * ones) & ~w & highs;  // exact for "some byte < 0x20"
  return (below_space | has_zero(w ^ ('"' * ones)) | has_zero(w ^ ('\\' * ones))) != 0;
}

inline bool needs_escape(unsigned char c) { return c < 0x20 || c == '"' || c == '\\'; }

inline std::uint64_t load8(const char* p) {
  std::uint64_t w;
  std::memcpy(&w, p, 8);
  return w;
}
inline std::uint32_t load4(const char* p) {
  std::uint32_t w;
  std::memcpy(&w, p, 4);
  return w;
}

// Whether no character of [s, s + n) needs escaping; whole words at a time, never past s + n.
inline bool all_plain(const char* s, std::size_t n) {
  if (n >= 8) {
    std::size_t i = 0;
    for (; n - i > 8; i += 8)
      if (any_needs_escape(load8(s + i))) return false;
    return !any_needs_escape(load8(s + n - 8));  // the last 8, overlapping what was checked
  }
  if (n >= 4) return !any_needs_escape(load4(s) | std::uint64_t{load4(s + n - 4)} << 32);
  for (std::size_t i = 0; i < n; ++i)
    if (needs_escape(static_cast<unsigned char>(s[i]))) return false;
  return true;
}

// The length of the longest prefix of [s, s + n) that needs no escaping.
inline std::size_t plain_prefix(const char* s, std::size_t n) {
  std::size_t i = 0;
  for (; n - i >= 8; i += 8)
    if (any_needs_escape(load8(s + i))) break;
  while (i < n && !needs_escape(static_cast<unsigned char>(s[i]))) ++i;
  return i;
}

// The escape sequence of a character that needs one (needs_escape), at p: returns its end.
inline constexpr std::size_t kMaxEscape = 6;  // \u00XX
inline char* write_escape(char* p, unsigned char c) {
  static constexpr char kUpperHex[] = "0123456789ABCDEF";
  *p++ = '\\';
  switch (c) {
    case '"':
      *p++ = '"';
      break;
    case '\\':
      *p++ = '\\';
      break;
    case '\b':
      *p++ = 'b';
      break;
    case '\t':
      *p++ = 't';
      break;
    case '\n':
      *p++ = 'n';
      break;
    case '\f':
      *p++ = 'f';
      break;
    case '\r':
      *p++ = 'r';
      break;
    default:
      std::memcpy(p, "u00", 3);
      p[3] = kUpperHex[c >> 4];
      p[4] = kUpperHex[c & 0xF];
      p += 5;
  }
  return p;
}

// Copies n characters to `to`, which has room for max(n, 16): short copies inline, as overlapping words.
inline void copy_short(char* to, const char* from, std::size_t n) {
  if (n >= 8 && n <= 16) {
    std::uint64_t a = load8(from), b = load8(from + n - 8);
    std::memcpy(to, &a, 8);
    std::memcpy(to + n - 8, &b, 8);
  } else if (n >= 4 && n < 8) {
    std::uint32_t a = load4(from), b = load4(from + n - 4);
    std::memcpy(to, &a, 4);
    std::memcpy(to + n - 4, &b, 4);
  } else if (n < 4) {
    for (std::size_t i = 0; i < n; ++i) to[i] = from[i];
  } else {
    std::memcpy(to, from, n);
  }
}

}  // namespace json_text_detail

}  // namespace anvil
