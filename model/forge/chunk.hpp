// A chunk of a block set with max_size = 0 (FORGE.md 2): `00 [u16 size][plain bytes]` or
// `01 [u32 compressed][u32 uncompressed][u32 checksum][compressed bytes]`.
#pragma once

#include "model/forge/variant.hpp"

namespace anvil::forge {

struct Chunk {
  static constexpr u8 kPlain = 0;
  static constexpr u8 kCompressed = 1;
  static constexpr std::size_t min_wire_size = 3;  // 00 and an empty run

  u8 kind = kPlain;
  u32 uncompressed_size = 0;  // kCompressed only (a plain chunk's is its size)
  u32 checksum = 0;           // kCompressed only
  OpaqueBytes stored;
  u64 stored_size = 0;  // loading only: the compressed size, until the bytes are read

  template <class Archive>
  void serialize(Archive& ar, unsigned version) {
    const bool wide = ForgeVariant::of(version).wide_counts();
    ar& make_nvp("kind", kind);
    ar& require(kind == kPlain || kind == kCompressed, 1, "chunk kind must be 00 or 01", kind);
    ar& either(
        kind == kPlain, "kind == 0",
        [&](auto& a) {
          // a plain chunk's size: u32 in layout 3 (FORGE.md 7)
          a& either(
              wide, kWideCounts, [&](auto& w) { w& counted_bytes<u32>("stored", stored); },
              [&](auto& w) { w& counted_bytes<u16>("stored", stored); });
        },
        [&](auto& a) {
          a& size_of<u32>("compressed_size", stored, stored_size);
          a& make_nvp("uncompressed_size", uncompressed_size);
          a& make_nvp("checksum", checksum);
          a& sized_bytes("stored", stored, stored_size);
        });
  }
  u64 decoded_size() const { return kind == kPlain ? stored.bytes.size() : uncompressed_size; }
};

}  // namespace anvil::forge
