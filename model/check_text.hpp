// How a failed check of a layout declaration is worded (FORMAT.md sections 2-3). The loading archives
// report these, and the generator names the check it plants a near miss on with them, so the two
// cannot word one check differently.
#pragma once

#include <absl/strings/str_format.h>

#include <string>

#include "model/primitives.hpp"

namespace anvil {

// A checked constant (`expect`): "streams count must be 0x00000000".
inline std::string must_be_text(const char* what, u64 value, std::size_t size) {
  return absl::StrFormat("%s must be 0x%0*x", what, 2 * size, value);
}
// A class switch without a catch-all: "slot class must be known".
inline std::string must_be_known_text(const char* what) { return absl::StrFormat("%s must be known", what); }
// An inline pointer's tag.
inline constexpr const char* kPointerTagText = "pointer tag must be 00 or 03";

}  // namespace anvil
