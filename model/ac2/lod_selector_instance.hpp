// `ac2` LODSelectorInstance: the instance matrices, the LODSelector link and five LOD slots
// (FORMAT.md 2.2).
#pragma once

#include <array>

#include "model/ac2/impostor_instance_data.hpp"
#include "model/ac2/mesh_instance_data.hpp"
#include "model/lod_selector_instance.hpp"

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

struct LODSelectorInstance : LODSelectorInstanceOf<Id64, SlotObject> {
  static constexpr const char* format_section = "2.2";
};

}  // namespace anvil::ac2
