// `ac2` ImpostorInstanceData, a LODSelectorInstance slot (FORMAT.md 2.5).
#pragma once

#include "model/class_ids.hpp"
#include "model/layout.hpp"

namespace anvil::ac2 {

struct ImpostorInstanceData {
  static constexpr const char* format_section = "2.5";
  static constexpr u32 class_id = class_id::kImpostorInstanceData;
  static constexpr std::size_t min_wire_size = 4 + 40 + 10;

  std::vector<Matrix> instances;
  Opaque<40> bounds;
  Opaque<10> impostor;  // kept as stored: 03 00 + an Impostor's id

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& counted<u32>("instances", instances);
    ar& make_nvp("bounds", bounds);
    ar& make_nvp("impostor", impostor);
  }
};

}  // namespace anvil::ac2
