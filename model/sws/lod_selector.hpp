// `sws` LODSelector: exactly 100 bytes, header included (FORMAT.md 3.1).
#pragma once

#include "model/class_ids.hpp"
#include "model/layout.hpp"

namespace anvil::sws {

struct LODDescriptor {
  static constexpr const char* format_section = "3.1";
  Opaque<8> pre;
  Id32 object;  // 0 = unused slot
  f32 switch_distance = 0;
  u8 flag = 0;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& make_nvp("pre", pre);
    ar& make_nvp("object", object);
    ar& make_nvp("switch_distance", switch_distance);
    ar& make_nvp("flag", flag);
  }
};

struct LODSelector {
  static constexpr const char* format_section = "3.1";
  static constexpr u32 class_id = class_id::kLODSelector;
  static constexpr std::size_t wire_size = 100;

  u8 managed = 0;
  Id32 id;
  u32 category = 0;
  u8 generated = 0;
  std::array<LODDescriptor, 5> slots{};  // slot 0 is LOD 0; distances need not be monotonic
  u8 trailing = 0;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& make_nvp("managed", managed);
    ar& make_nvp("id", id);
    ar& expect<u32>(class_id, "LODSelector class");
    ar& make_nvp("category", category);
    ar& make_nvp("generated", generated);
    ar& make_nvp("slots", slots);
    ar& make_nvp("trailing", trailing);
  }
};

}  // namespace anvil::sws
