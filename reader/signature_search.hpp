// Finds the places of a 4-byte class id in a file, in order: the carver's candidate search.
#pragma once

#include <cstring>
#include <optional>
#include <span>

#include "model/primitives.hpp"

namespace anvil {

// The first offset >= from where the little-endian bytes of `class_id` lie in `file`.
inline std::optional<std::size_t> find_class_id(std::span<const u8> file, std::size_t from, u32 class_id) {
  if (from >= file.size()) return std::nullopt;
  u8 needle[4];
  std::memcpy(needle, &class_id, 4);
  const void* hit = memmem(file.data() + from, file.size() - from, needle, 4);
  if (hit == nullptr) return std::nullopt;
  return static_cast<std::size_t>(static_cast<const u8*>(hit) - file.data());
}

}  // namespace anvil
