// An index entry (FORGE.md 1): where a data file's 440-byte header starts, its id, and its stored size
// (the `size` bytes after that header).
#pragma once

#include "model/layout.hpp"

namespace anvil::forge {

struct IndexEntry {
  static constexpr std::size_t wire_size = 16;

  u64 offset = 0;
  Id32 file_id;
  u32 size = 0;

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& make_nvp("offset", offset);
    ar& make_nvp("file_id", file_id);
    ar& make_nvp("size", size);
  }
};

}  // namespace anvil::forge
