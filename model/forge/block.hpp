// A block of a block set with max_size != 0 (FORGE.md 2): its sizes in the set's table, then, after
// the table, `[u32 checksum][compressed bytes]`. A block whose two sizes are equal is stored plain.
#pragma once

#include "model/layout.hpp"

namespace anvil::forge {

struct Block {
  static constexpr std::size_t head_wire_size = 4;      // [u16 uncompressed][u16 compressed]
  static constexpr std::size_t min_body_wire_size = 4;  // [u32 checksum]

  u16 uncompressed_size = 0;
  u32 checksum = 0;
  OpaqueBytes stored;   // as stored: LZO, or plain when its size equals uncompressed_size
  u64 stored_size = 0;  // loading only: the table's compressed size, until the bytes are read

  template <class Archive>
  void serialize_head(Archive& ar) {
    ar& make_nvp("uncompressed_size", uncompressed_size);
    ar& size_of<u16>("compressed_size", stored, stored_size);
  }
  template <class Archive>
  void serialize_body(Archive& ar) {
    ar& make_nvp("checksum", checksum);
    ar& sized_bytes("stored", stored, stored_size);
  }
  bool is_plain() const { return stored.bytes.size() == uncompressed_size; }
};

}  // namespace anvil::forge
