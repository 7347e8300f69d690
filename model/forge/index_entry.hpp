// An index entry (FORGE.md 1, 7): where a data file's 440-byte header starts, its id, and its stored size
// (the `size` bytes after that header). Version 27: a 64-bit id, and the offset is the stored bytes'
// own (that version has no 440-byte header).
#pragma once

#include <type_traits>

#include "model/forge/variant.hpp"

namespace anvil::forge {

struct IndexEntry {
  u64 offset = 0;
  Id64 file_id;  // a u32 before version 27
  u32 size = 0;

  template <class Archive>
  void serialize(Archive& ar, unsigned version) {
    ar& make_nvp("offset", offset);
    ar& either(
        ForgeVariant::of(version).wide_ids(), kWideIds, [&](auto& a) { a& make_nvp("file_id", file_id); },
        [&](auto& a) {
          Id32 narrow{static_cast<u32>(file_id.value)};
          a& make_nvp("file_id", narrow);
          if constexpr (std::decay_t<decltype(a)>::is_loading::value) file_id.value = narrow.value;
        });
    ar& make_nvp("size", size);
  }
};

}  // namespace anvil::forge
