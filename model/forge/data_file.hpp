// A decompressed data file (FORGE.md 3, AC2: pyUbiForge2's DataFileFormat 1): a table of entries
// `[u32 file_id][u32 data_size][i16 extra]`, m bytes kept, then per entry its resource header and
// body. The objects of FORMAT.md are carved from the bodies, never across two.
#pragma once

#include "model/layout.hpp"

namespace anvil::forge {

struct Entry {
  static constexpr std::size_t head_wire_size = 4 + 4 + 2;
  static constexpr std::size_t min_body_wire_size = 4 + 4 + 4 + 1;

  // the table
  Id32 file_id;
  u32 data_size = 0;
  i16 extra = 0;
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
    ar& make_nvp("file_id", file_id);
    ar& make_nvp("data_size", data_size);
    ar& make_nvp("extra", extra);
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
  static constexpr std::size_t min_wire_size = 2 + 4;

  std::vector<Entry> entries;
  OpaqueBytes unknown;  // the m bytes after the table

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    ar& heads<u16>("entries", entries);
    ar& counted_bytes<u32>("unknown", unknown);
    ar& bodies("resources", entries);
  }
};

}  // namespace anvil::forge
