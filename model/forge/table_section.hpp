// A table section (FORGE.md 1): `count` index and name entries, and the offset of the next section.
#pragma once

#include "model/layout.hpp"

namespace anvil::forge {

struct TableSection {
  static constexpr i64 kLast = -1;  // `next` of the last section

  i32 count = 0;
  Opaque<4> unknown_0;
  i64 index_table = 0;  // offset of `count` IndexEntry
  i64 next = kLast;
  Opaque<8> unknown_1;
  i64 name_table = 0;   // offset of `count` NameEntry
  Opaque<8> unknown_2;  // the raw-data table offset, kept

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& make_nvp("count", count);
    ar& require(count >= 0, sizeof count, "count must not be negative", count);
    ar& make_nvp("unknown_0", unknown_0);
    ar& make_nvp("index_table", index_table);
    ar& make_nvp("next", next);
    ar& make_nvp("unknown_1", unknown_1);
    ar& make_nvp("name_table", name_table);
    ar& make_nvp("unknown_2", unknown_2);
  }
};

}  // namespace anvil::forge
