// The file-data header at H (FORGE.md 1, 7): 32 bytes kept (36 in version 27), then S, the offset of the
// first table section.
#pragma once

#include "model/forge/variant.hpp"

namespace anvil::forge {

struct DataHeader {
  Opaque<32> unknown;     // the wiki: total file count and more
  Opaque<4> unknown_27;   // version 27 only
  i64 first_section = 0;  // S

  template <class Archive>
  void serialize(Archive& ar, unsigned version) {
    ar& make_nvp("unknown", unknown);
    ar& only_if(ForgeVariant::of(version).kept_27(), kKept27, [&](auto& a) { a& make_nvp("unknown_27", unknown_27); });
    ar& make_nvp("first_section", first_section);
  }
};

}  // namespace anvil::forge
