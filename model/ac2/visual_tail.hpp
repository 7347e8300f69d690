// `ac2` Visual tail: the four Visual bools, DisplayOrder and the VisualShaderConstants with its five
// layouts (FORMAT.md 2.7). Always 125 bytes.
#pragma once

#include "model/class_ids.hpp"
#include "model/layout.hpp"

namespace anvil::ac2 {

struct VisualTail {
  static constexpr const char* format_section = "2.7";
  static constexpr std::size_t wire_size = 125;
  static constexpr std::array<u32, 5> kLayoutClasses = {class_id::kDefaultLayout, class_id::kUILayout,
                                                        class_id::kSkinLayout, class_id::kGearLayout,
                                                        class_id::kMaterialLayout};

  u8 can_be_occluder = 0;
  u8 has_unshare_context = 0;
  u8 optimized_packed_lod = 0;
  u8 copy_instance_data_on_duplicate = 0;
  u32 display_order = 0;
  Opaque<8> unaccounted;
  Id64 shader_constants_id;
  u32 data_layout = 0;               // 0 Default, 1 UI, 2 Skin, 3 Gear, 4 Material
  std::array<Id64, 5> layout_ids{};  // each stored as [u64 id][u32 class of its place]
  std::array<u32, 4> data_u32{};
  std::array<f32, 4> data_f32{};

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& make_nvp("can_be_occluder", can_be_occluder);
    ar& make_nvp("has_unshare_context", has_unshare_context);
    ar& make_nvp("optimized_packed_lod", optimized_packed_lod);
    ar& make_nvp("copy_instance_data_on_duplicate", copy_instance_data_on_duplicate);
    ar& make_nvp("display_order", display_order);
    ar& expect<u8>(0x03, "tail pointer tag");
    ar& make_nvp("unaccounted", unaccounted);
    ar& make_nvp("shader_constants_id", shader_constants_id);
    ar& expect<u32>(class_id::kVisualShaderConstants, "VisualShaderConstants class");
    ar& make_nvp("data_layout", data_layout);
    ar& each_followed_by("layout_ids", layout_ids, kLayoutClasses, "layout class");
    ar& make_nvp("data_u32", data_u32);
    ar& make_nvp("data_f32", data_f32);
  }
};

}  // namespace anvil::ac2
