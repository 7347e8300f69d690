// A decompressed data file (FORGE.md 3 and 7, pyUbiForge2's DataFileFormat 0-3): the u16 entry count,
// the entries' table (by layout: `[u32 file_id][u32 data_size]`, `... [i16 extra]`, or
// `[u64 file_id][u32 data_size][i16 e]` and e pairs), what the layout and version keep after it, then per
// entry its resource header and body. The objects of FORMAT.md are carved from the bodies, never across two.
#pragma once

#include <type_traits>

#include "model/forge/variant.hpp"

namespace anvil::forge {

// What the pairs' length is, in the schemas' words (the same rule as serialize_head's).
inline constexpr const char* kPairsSize = "extra > 0 ? 2 * extra : 0";

struct Entry {
  static constexpr std::size_t head_wire_size = 4 + 4;  // the least (layout 0's): what a count is checked by
  static constexpr bool head_size_is_least = true;      // 8, 10 or 14 + 2e bytes by layout
  static constexpr std::size_t min_body_wire_size = 4 + 4 + 4 + 1;

  // the table
  Id64 file_id;  // a u32 in layouts 0 and 1
  u32 data_size = 0;
  i16 extra = 0;      // layouts 1-3 (layouts 2-3: e, the count of the pairs)
  OpaqueBytes pairs;  // layouts 2-3: e x 2 bytes when e > 0
  // the resource
  u32 resource_type = 0;
  OpaqueBytes name;  // name_length bytes
  u8 flag = 0;
  Opaque<3> flag_unknown;                // flag 1 only
  std::vector<Opaque<12>> flag_records;  // flag 1 only: [u32 k][12k bytes]
  OpaqueBytes body;                      // file_size bytes
  u64 body_size = 0;                     // loading only: file_size, until the body is read

  template <class Archive>
  void serialize_head(Archive& ar) {
    const ForgeVariant v = ForgeVariant::of(ar.version());
    ar& either(
        v.wide_entries(), kWideEntries, [&](auto& a) { a& make_nvp("file_id", file_id); },
        [&](auto& a) {
          Id32 narrow{static_cast<u32>(file_id.value)};
          a& make_nvp("file_id", narrow);
          if constexpr (std::decay_t<decltype(a)>::is_loading::value) file_id.value = narrow.value;
        });
    ar& make_nvp("data_size", data_size);
    ar& only_if(v.extra(), kExtra, [&](auto& a) { a& make_nvp("extra", extra); });
    ar& only_if(v.wide_entries(), kWideEntries,
                [&](auto& a) { a& computed_bytes("pairs", pairs, extra > 0 ? 2 * u64(extra) : 0, kPairsSize); });
  }
  template <class Archive>
  void serialize_body(Archive& ar) {
    ar& make_nvp("resource_type", resource_type);
    ar& size_of<u32>("file_size", body, body_size);
    ar& counted_bytes<u32>("name", name);
    ar& make_nvp("flag", flag);
    ar& require(flag <= 1, 1, "resource flag must be 0 or 1", flag);
    ar& only_if(flag == 1, "flag == 1", [&](auto& a) {
      a& make_nvp("flag_unknown", flag_unknown);
      a& counted<u32>("flag_records", flag_records);
    });
    ar& sized_bytes("body", body, body_size);
  }
};

struct DataFile {
  static constexpr std::size_t min_wire_size = 2;

  std::vector<Entry> entries;
  OpaqueBytes unknown_26;  // version 26, layouts 1-3: the x bytes after the table
  OpaqueBytes unknown;     // layout 1: the m bytes after the table

  template <class Archive>
  void serialize(Archive& ar, unsigned version) {
    const ForgeVariant v = ForgeVariant::of(version);
    ar& heads<u16>("entries", entries);
    ar& only_if(v.version_tail(), kVersionTail, [&](auto& a) { a& counted_bytes<u32>("unknown_26", unknown_26); });
    ar& only_if(v.table_tail(), kTableTail, [&](auto& a) { a& counted_bytes<u32>("unknown", unknown); });
    ar& bodies("resources", entries);
  }
};

}  // namespace anvil::forge
