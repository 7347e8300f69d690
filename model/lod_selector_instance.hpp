// LODSelectorInstance, one layout for both dialects (FORMAT.md 2.2; `sws` 3.2: the same with 32-bit ids
// and its own slot objects): the instance matrices, the LODSelector link and five LOD slots.
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "model/class_ids.hpp"
#include "model/layout.hpp"

namespace anvil {

// `IdT`: the dialect's object id; `Slot`: what a slot holds, `00 [id][u32 class]` + its body.
template <class IdT, class Slot>
struct LODSelectorInstanceOf {
  static constexpr u32 class_id = class_id::kLODSelectorInstance;

  std::vector<Matrix> instances;
  Opaque<40> bounds;
  IdT selector;  // the LODSelector's id
  std::array<std::optional<Slot>, 5> slots;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& counted<u32>("instances", instances);
    ar& make_nvp("bounds", bounds);
    ar& expect_named<u8>("shader_constants", 0x03);
    ar& expect<u8>(0x01, "selector link tag");
    ar& make_nvp("selector", selector);
    ar& make_nvp("slots", slots);
  }
};

}  // namespace anvil
