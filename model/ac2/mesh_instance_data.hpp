// `ac2` MeshInstanceData with its inline CompiledMeshInstance (FORMAT.md 2.3).
#pragma once

#include "model/ac2/material_info.hpp"

namespace anvil::ac2 {

// The CompiledMeshInstance fields that the format lets vary; its tag, class and the streams count
// (which must be 0, the stream layout being unknown) are checked constants.
struct CompiledMeshInstance {
  static constexpr const char* format_section = "2.3";
  Id64 id;  // 0 observed
  u8 vertex_format = 0;
  u32 platform_version = 0;  // 31 observed
  Id64 mesh_hash;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& expect<u8>(0x00, "CompiledMeshInstance tag");
    ar& make_nvp("id", id);
    ar& expect<u32>(class_id::kCompiledMeshInstance, "CompiledMeshInstance class");
    ar& make_nvp("vertex_format", vertex_format);
    ar& expect<u32>(0, "streams count");
    ar& make_nvp("platform_version", platform_version);
    ar& make_nvp("mesh_hash", mesh_hash);
  }
};

struct MeshInstanceData {
  static constexpr const char* format_section = "2.3";
  static constexpr u32 class_id = class_id::kMeshInstanceData;
  static constexpr std::size_t min_wire_size = 4 + 40 + 1 + 1 + 1 + 4 + 30 + 4 + 4;

  std::vector<Matrix> instances;
  Opaque<40> bounds;
  u8 is_fake = 0;
  u8 is_near_fake = 0;
  u32 fake_mesh_index = 0;
  CompiledMeshInstance compiled;
  std::vector<MaterialInfo> materials;
  std::vector<Opaque<40>> instance_bounds;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& counted<u32>("instances", instances);
    ar& make_nvp("bounds", bounds);
    ar& expect_named<u8>("shader_constants", 0x03);
    ar& make_nvp("is_fake", is_fake);
    ar& make_nvp("is_near_fake", is_near_fake);
    ar& make_nvp("fake_mesh_index", fake_mesh_index);
    ar& make_nvp("compiled", compiled);
    ar& counted<u32>("materials", materials);
    ar& counted<u32>("instance_bounds", instance_bounds);
  }
};

}  // namespace anvil::ac2
