// Where the VisualShaderConstants class id lies in an `ac2` Visual tail, taken from the tail's layout
// declaration (model/check_locator.hpp), never typed by hand: the tail search of the unknown-instance
// rule (reader/file_tails.hpp) finds tail candidates by it. (The generator plants its tail_class near
// miss on the same check, which it finds by name in the declaration: gen/near_miss.cpp.)
#pragma once

#include <cstddef>

#include "model/ac2/visual_tail.hpp"
#include "model/check_locator.hpp"

namespace anvil::ac2 {

inline const std::size_t kTailClassOffset = constant_offset<VisualTail>(class_id::kVisualShaderConstants);

}  // namespace anvil::ac2
