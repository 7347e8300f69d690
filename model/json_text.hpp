// How field values are spelled in JSON (FORMAT.md section 4): ids as fixed-width lowercase hex, opaque
// bytes as lowercase hex, f32 in its shortest round-tripping form or as "f32:0x…" bits when not finite.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/primitives.hpp"

namespace anvil::json_text {

// "0x" + 2*width_bytes lowercase hex digits; into `out` (kMaxIdChars at least), returning the length.
inline constexpr std::size_t kMaxIdChars = 18;
std::size_t format_id(char* out, u64 value, std::size_t width_bytes);
std::string format_id(u64 value, std::size_t width_bytes);
// Accepts exactly "0x" + 2*width_bytes hex digits (either case).
std::optional<u64> parse_id(std::string_view text, std::size_t width_bytes);

void append_hex(std::string& out, const u8* data, std::size_t size);
// Decodes an even number of hex digits (either case) into `out`; false on any other character.
bool parse_hex(std::string_view text, std::vector<u8>& out);

// Appends the shortest decimal that reads back as the same f32, as a JSON number ("-0.0" for
// negative zero, so that JSON parsers that read "-0" as the integer 0 keep the sign). Finite only.
void append_f32(std::string& out, f32 value);
// "f32:0x7fc00000": the spelling of a NaN or an infinity.
std::string format_f32_bits(f32 value);
std::optional<f32> parse_f32_bits(std::string_view text);

}  // namespace anvil::json_text
