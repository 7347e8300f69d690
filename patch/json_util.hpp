// Internal to patch/: RFC 6901 pointers, an object's JSON as a DOM, JSON text and exact comparisons.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/object.hpp"
#include "patch/rapidjson_document.hpp"
#include "reader/level.hpp"

namespace anvil::patch {

// RFC 6901: "" is the whole document; otherwise "/" + segments with "~1" for "/" and "~0" for "~".
// Nothing when the pointer is malformed.
std::optional<std::vector<std::string>> parse_pointer(std::string_view pointer);
std::string escape_segment(std::string_view segment);
std::string make_pointer(const std::vector<std::string>& segments, std::size_t count);

// An array index segment: "0" or a decimal without leading zeros. Nothing otherwise ("-" included).
std::optional<std::size_t> parse_index(std::string_view segment);

// The object's JSON as in the document: { "offset", "length", "class", ...fields }, each f32 the double
// of its value (for comparing encodings, as `diff` does).
void object_dom(const Object& object, const Piece& piece, rapidjson::Document& out);
// The same as the document's text holds it: the JSON that `dump` prints, parsed (an f32 is the number
// its shortest decimal spells, 0.1 and not 0.10000000149011612), which is what RFC 6902 operations see.
void object_document(const Object& object, const Extent& extent, rapidjson::Document& out);

// JSON text of a value, f32-exact doubles printed shortest.
std::string to_text(const rapidjson::Value& value);

// Same type and same value; doubles compared bit for bit (so -0.0 differs from 0.0).
bool exact_equal(const rapidjson::Value& a, const rapidjson::Value& b);
// RFC 6902 section 4.6 equality: numbers by their mathematical value (1 equals 1.0, -0.0 equals 0.0),
// strings exactly, arrays element by element, objects member by member in any order; values of two
// types never equal.
bool json_equal(const rapidjson::Value& a, const rapidjson::Value& b);

// The value at `segments[begin..]` below `root`, or null.
const rapidjson::Value* find(const rapidjson::Value& root, const std::vector<std::string>& segments, std::size_t begin);

// When `segments[begin..]` misses below `root` at a member of an object that a member nearly names
// (one or two letters added, dropped or changed): ` (did you mean "active"?)`, naming that member;
// otherwise empty. For the one-line reason of a pointer that points to nothing.
std::string did_you_mean(const rapidjson::Value& root, const std::vector<std::string>& segments, std::size_t begin);

// JSON text of an f32 (number, or "f32:0x…" string when not finite) and of an id.
std::string f32_text(f32 value);
std::string id_text(u64 value, std::size_t width);
std::string matrix_text(const Matrix& m);

}  // namespace anvil::patch
