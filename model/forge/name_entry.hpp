// A name entry (FORGE.md 1): the data file's raw size (usually the index size), type and name.
#pragma once

#include "model/layout.hpp"

namespace anvil::forge {

struct NameEntry {
  static constexpr std::size_t wire_size = 188;

  u32 raw_size = 0;
  Opaque<12> unknown_0;
  u32 file_type = 0;
  Opaque<24> unknown_1;
  FixedString<128> name;
  Opaque<16> unknown_2;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& make_nvp("raw_size", raw_size);
    ar& make_nvp("unknown_0", unknown_0);
    ar& make_nvp("file_type", file_type);
    ar& make_nvp("unknown_1", unknown_1);
    ar& make_nvp("name", name);
    ar& make_nvp("unknown_2", unknown_2);
  }
};

}  // namespace anvil::forge
