// The JSON bodies the editor's API takes: bounded before they are parsed (the server's payload limit,
// serve/server.cpp) and in depth after (parsed without recursion, kParseIterativeFlag, so a hostile
// nesting cannot exhaust the stack, then measured).
#pragma once

#include <absl/status/statusor.h>
#include <rapidjson/document.h>

#include <cstddef>
#include <string_view>

namespace anvil::serve {

inline constexpr std::size_t kMaxBodyBytes = std::size_t{1} << 20;  // 1 MiB: a pending patch of thousands of edits
inline constexpr std::size_t kMaxJsonDepth = 64;  // a patch op's value holds an object's JSON, about 12 deep

// The body parsed (full-precision numbers); InvalidArgument, one line, when it is not JSON, not an object,
// or nested deeper than kMaxJsonDepth.
absl::Status parse_request(std::string_view body, rapidjson::Document& out);

// The nesting depth of a value (a scalar is 1), without recursion.
std::size_t json_depth(const rapidjson::Value& value);

}  // namespace anvil::serve
