// `sws` Visual (FORMAT.md 3.2, Inferred): the component header, the InstanceData pointer and 44 unnamed
// bytes. LightInstance and unknown classes have no known length: such a Visual is not carved.
#pragma once

#include "model/lod_selector_instance.hpp"
#include "model/sws/mesh_instance_data.hpp"

namespace anvil::sws {

// A slot of an `sws` LODSelectorInstance: `00 [u32 id][u32 class = MeshInstanceData]` + its body.
struct SlotObject {
  static constexpr const char* format_section = "3.2";
  Id32 id;
  std::variant<MeshInstanceData> body;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& make_nvp("id", id);
    ar& class_switch(body, "slot class");
  }
};

// As `ac2` 2.2 with 32-bit ids.
struct LODSelectorInstance : LODSelectorInstanceOf<Id32, SlotObject> {
  static constexpr const char* format_section = "3.2";
};

struct Instance {
  static constexpr const char* format_section = "3.2";
  Id32 id;
  std::variant<MeshInstanceData, LODSelectorInstance> body;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& make_nvp("id", id);
    ar& class_switch(body, "instance class");
  }
};

struct Visual {
  static constexpr const char* format_section = "3.2";
  static constexpr u32 class_id = class_id::kVisual;

  u8 managed = 0;
  Id32 id;
  u8 active = 0;
  u8 is_an_optimized_component = 0;
  u8 is_partially_optimized = 0;
  std::optional<Instance> instance;
  Opaque<44> unnamed;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& make_nvp("managed", managed);
    ar& make_nvp("id", id);
    ar& expect<u32>(class_id, "Visual class");
    ar& make_nvp("active", active);
    ar& make_nvp("is_an_optimized_component", is_an_optimized_component);
    ar& make_nvp("is_partially_optimized", is_partially_optimized);
    ar& make_nvp("instance", instance);
    ar& make_nvp("unnamed", unnamed);
  }
};

}  // namespace anvil::sws
