// A data file as stored in the archive (FORGE.md 2, 7): the layout's prefix (layout 1: `[u32 n][8n bytes]`;
// layout 2: `[u32 b][b bytes]`; layouts 0 and 3: none), then one block set, two when the first's
// max_size != 0, or the plain data file. A stored size of 0 is an empty data file.
#pragma once

#include <optional>

#include "model/forge/block_set.hpp"
#include "model/forge/variant.hpp"
#include "model/layout.hpp"

namespace anvil::forge {

struct StoredDataFile {
  static constexpr std::size_t min_wire_size = 0;

  // Whether block sets follow the prefix (the next 8 bytes are BlockSet::kMagic). Loading: set by the
  // caller, which looks at those bytes (reader/forge/data_files.cpp); saving: whether `first` is there.
  bool compressed = false;

  // A stored size of 0: no bytes at all, not even the prefix's count. Loading: set by the caller, which
  // reads no bytes then; saving: writes nothing.
  bool empty = false;

  // The version and layout it was read in (set by the reader: what block_layout() measures it by).
  ForgeVariant variant;

  std::vector<Opaque<8>> prefix;        // layout 1
  std::vector<Opaque<1>> prefix_bytes;  // layout 2 (elements, not a run: a skimming read's runs are the blocks')
  std::optional<BlockSet> first;
  std::optional<BlockSet> second;  // when first->max_size != 0
  OpaqueBytes plain;               // when not compressed: the rest of the stored bytes

  template <class Archive>
  void serialize(Archive& ar, unsigned version) {
    if (empty) return;
    const ForgeVariant v = ForgeVariant::of(version);
    if constexpr (Archive::is_saving::value) compressed = first.has_value();
    ar& only_if(v.prefix_pairs(), kPrefixPairs, [&](auto& a) { a& counted<u32>("prefix", prefix); });
    ar& only_if(v.prefix_bytes(), kPrefixBytes, [&](auto& a) { a& counted<u32>("prefix_bytes", prefix_bytes); });
    ar& present_if("first", first, compressed, "when the compression magic follows the prefix");
    ar& present_if("second", second, compressed && first && first->max_size != 0,
                   "when the first block set's max_size is not 0");
    ar& only_if(!compressed, "no compression magic follows the prefix",
                [&](auto& a) { a& rest_bytes("plain", plain); });
  }
};

}  // namespace anvil::forge

namespace anvil::forge {
// The bytes of `stored`'s prefix in `variant`'s layout.
inline u64 prefix_wire_size(const StoredDataFile& stored, ForgeVariant variant) {
  if (variant.prefix() == StoredPrefix::none) return 0;
  const u64 count = variant.prefix_pairs() ? stored.prefix.size() : stored.prefix_bytes.size();
  return sizeof(u32) + prefix_unit(variant.prefix()) * count;
}
}  // namespace anvil::forge
