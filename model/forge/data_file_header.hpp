// The header before each data file's stored bytes (FORGE.md 1): its name, then 312 bytes kept. Version
// 27 has none (FORGE.md 7: TableLayout::file_header is 0).
#pragma once

#include "model/forge/name_entry.hpp"
#include "model/layout.hpp"

namespace anvil::forge {

struct DataFileHeader {
  FixedString<kDataFileNameSize> name;
  Opaque<312> unknown;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& make_nvp("name", name);
    ar& make_nvp("unknown", unknown);
  }
};

}  // namespace anvil::forge
