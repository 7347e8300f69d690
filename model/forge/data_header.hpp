// The file-data header at H (FORGE.md 1): 32 bytes kept, then S, the offset of the first table section.
#pragma once

#include "model/layout.hpp"

namespace anvil::forge {

struct DataHeader {
  static constexpr std::size_t wire_size = 40;
  static constexpr std::size_t kFirstSectionAt = 32;  // for errors: where S lies

  Opaque<32> unknown;     // the wiki: total file count and more
  i64 first_section = 0;  // S

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& make_nvp("unknown", unknown);
    ar& make_nvp("first_section", first_section);
  }
};

}  // namespace anvil::forge
