// platform::prefer_huge_pages for a buffer an allocator placed anywhere: the advice given for the whole
// 2 MiB pages inside it (the system takes advice only on aligned ranges). For the map's large lists, made
// once front to back (view/placed_instances.cpp, view/map_scene.cpp).
#pragma once

#include <cstddef>
#include <cstdint>

#include "platform/memory.hpp"

namespace anvil::view {

inline void advise_huge_pages(void* p, std::size_t size) {
  constexpr std::uintptr_t kHuge = std::uintptr_t{2} << 20;
  const auto begin = reinterpret_cast<std::uintptr_t>(p), end = begin + size;
  const std::uintptr_t first = (begin + kHuge - 1) / kHuge * kHuge, last = end / kHuge * kHuge;
  if (last > first) platform::prefer_huge_pages(reinterpret_cast<void*>(first), last - first);
}

}  // namespace anvil::view
