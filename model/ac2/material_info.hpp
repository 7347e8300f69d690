// `ac2` MeshInstanceMaterialInfo: which Material replaces which on a mesh instance (FORMAT.md 2.4).
#pragma once

#include "model/class_ids.hpp"
#include "model/layout.hpp"

namespace anvil::ac2 {

struct MaterialInfo {
  static constexpr const char* format_section = "2.4";
  static constexpr std::size_t wire_size = 41;

  Id64 id;
  Id64 owner;
  Id64 source;       // the source Material
  u8 mode = 0;       // 01 and 04 observed
  Id64 replacement;  // the replacement Material

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& expect<u8>(0x00, "material info tag");
    ar& make_nvp("id", id);
    ar& expect<u32>(class_id::kMeshInstanceMaterialInfo, "material info class");
    ar& expect<u8>(0x02, "material info owner tag");
    ar& make_nvp("owner", owner);
    ar& expect<u8>(0x00, "material info source tag");
    ar& make_nvp("source", source);
    ar& expect<u8>(0x01, "material info replacement tag");
    ar& make_nvp("mode", mode);
    ar& make_nvp("replacement", replacement);
  }
};

}  // namespace anvil::ac2
