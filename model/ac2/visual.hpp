// `ac2` Visual: the top-level object of Assassin's Creed II level data (FORMAT.md 2.1), with the
// instance bodies it may hold.
#pragma once

#include "model/ac2/lod_selector_instance.hpp"
#include "model/ac2/visual_tail.hpp"

namespace anvil::ac2 {

// LightInstance: 311 opaque bytes from the end of the instance header, its own tail included.
struct LightInstance {
  static constexpr const char* format_section = "2.1";
  static constexpr u32 class_id = class_id::kLightInstance;
  Opaque<311> body;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& make_nvp("body", body);
  }
};

// An instance of any other class (SplashFXInstanceData among them): opaque bytes up to the Visual tail.
struct UnknownInstance {
  static constexpr const char* format_section = "2.1";
  static constexpr bool any_class = true;
  u32 class_id = 0;
  OpaqueBytes body;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& until_tail("body", body);
  }
};

struct Instance {
  static constexpr const char* format_section = "2.1";
  Id64 id;
  std::variant<LODSelectorInstance, MeshInstanceData, LightInstance, UnknownInstance> body;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& make_nvp("id", id);
    ar& class_switch(body, "instance class");
  }
  bool is_light() const { return std::holds_alternative<LightInstance>(body); }
};

// What a Visual shows: a LODSelector, a Mesh, or none (tag[0] 03). All 10 bytes are always stored.
struct ShownObject {
  static constexpr const char* format_section = "2.1";
  std::array<u8, 2> tag{};
  Id64 id;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& make_nvp("tag", tag);
    ar& make_nvp("id", id);
  }
};

struct Visual {
  static constexpr const char* format_section = "2.1";
  static constexpr u32 class_id = class_id::kVisual;

  Id64 id;
  u8 managed = 0;
  u8 active = 0;
  u8 is_an_optimized_component = 0;
  u8 is_partially_optimized = 0;
  ShownObject object;
  std::optional<Instance> instance;
  std::optional<VisualTail> tail;  // absent after a LightInstance

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& make_nvp("id", id);
    ar& expect<u32>(class_id, "Visual class");
    ar& make_nvp("managed", managed);
    ar& make_nvp("active", active);
    ar& make_nvp("is_an_optimized_component", is_an_optimized_component);
    ar& make_nvp("is_partially_optimized", is_partially_optimized);
    ar& make_nvp("object", object);
    ar& make_nvp("instance", instance);
    ar& present_if("tail", tail, !(instance && instance->is_light()), "unless the instance is a LightInstance");
  }
};

}  // namespace anvil::ac2
