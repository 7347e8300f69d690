// The header before each data file's stored bytes (FORGE.md 1): its name, then 312 bytes kept.
#pragma once

#include "model/layout.hpp"

namespace anvil::forge {

struct DataFileHeader {
  static constexpr std::size_t wire_size = 440;

  FixedString<128> name;
  Opaque<312> unknown;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& make_nvp("name", name);
    ar& make_nvp("unknown", unknown);
  }
};

}  // namespace anvil::forge
