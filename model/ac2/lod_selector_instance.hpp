// `ac2` LODSelectorInstance: the instance matrices, the LODSelector link and five LOD slots
// (FORMAT.md 2.2).
#pragma once

#include <array>

#include "model/ac2/impostor_instance_data.hpp"
#include "model/ac2/mesh_instance_data.hpp"

namespace anvil::ac2 {

// What a slot holds: `00 [u64 id][u32 class]` + the body of that class. Any other class: not a Visual.
struct SlotObject {
  static constexpr const char* format_section = "2.2";
  Id64 id;
  std::variant<MeshInstanceData, ImpostorInstanceData> body;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& make_nvp("id", id);
    ar& class_switch(body, "slot class");
  }
};

struct LODSelectorInstance {
  static constexpr const char* format_section = "2.2";
  static constexpr u32 class_id = class_id::kLODSelectorInstance;

  std::vector<Matrix> instances;
  Opaque<40> bounds;
  Id64 selector;  // the LODSelector's id
  std::array<std::optional<SlotObject>, 5> slots;

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

}  // namespace anvil::ac2
