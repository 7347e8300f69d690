// How an error about JSON input (a patch, a dump) describes what the user wrote: a value of the wrong
// type by its type ("must be a string (found a number)"), a value of the right type but not accepted as
// written ("found 300", "found 1e39", never a reformatted "300.000000"), and a syntax error by line and
// column.
#pragma once

#include <absl/strings/str_format.h>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <cstddef>
#include <string>
#include <string_view>

namespace anvil {

// The JSON type of a value, for "must be X (found a number)".
inline std::string json_kind(const rapidjson::Value& v) {
  switch (v.GetType()) {
    case rapidjson::kNullType:
      return "null";
    case rapidjson::kFalseType:
    case rapidjson::kTrueType:
      return "a boolean";
    case rapidjson::kObjectType:
      return "an object";
    case rapidjson::kArrayType:
      return "an array";
    case rapidjson::kStringType:
      return "a string";
    case rapidjson::kNumberType:
      return "a number";
  }
  return "a value";
}

// The value as JSON text, as the user wrote it: integers as integers, other numbers as the shortest text
// that reads back as the same double (`1e39`, `1.5`: what was written, unless it was written with more
// digits than the double holds), strings quoted. Cut to about `limit` characters.
inline std::string json_as_written(const rapidjson::Value& v, std::size_t limit = 60) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  v.Accept(writer);
  std::string text(buffer.GetString(), buffer.GetSize());
  if (text.size() > limit) text = text.substr(0, limit - 3) + "...";
  return text;
}

// 1-based line and column (in characters: UTF-8 continuation bytes do not count) of a byte offset.
struct TextPosition {
  std::size_t line = 1;
  std::size_t column = 1;
};
inline TextPosition text_position(std::string_view text, std::size_t offset) {
  TextPosition at;
  if (offset > text.size()) offset = text.size();
  for (std::size_t i = 0; i < offset; ++i) {
    unsigned char c = static_cast<unsigned char>(text[i]);
    if (c == '\n') {
      ++at.line;
      at.column = 1;
    } else if ((c & 0xC0) != 0x80) {
      ++at.column;
    }
  }
  return at;
}

// "line 3, column 14: what" for something wrong at a byte offset of JSON text.
inline std::string at_text_position(std::string_view text, std::size_t offset, std::string_view what) {
  TextPosition at = text_position(text, offset);
  return absl::StrFormat("line %d, column %d: %s", at.line, at.column, what);
}

// A RapidJSON parse error as "line 1, column 14: not JSON: missing a comma or '}' after an object
// member".
inline std::string json_syntax_error(std::string_view text, rapidjson::ParseErrorCode code, std::size_t offset) {
  std::string what = rapidjson::GetParseError_En(code);
  if (!what.empty() && what.back() == '.') what.pop_back();
  if (!what.empty() && what[0] >= 'A' && what[0] <= 'Z') what[0] = static_cast<char>(what[0] - 'A' + 'a');
  return at_text_position(text, offset, "not JSON: " + what);
}

}  // namespace anvil
