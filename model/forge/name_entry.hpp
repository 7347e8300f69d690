// A name entry (FORGE.md 1, 7): the data file's raw size (usually the index size), type and name; in
// version 27, 4 more bytes kept at its end.
#pragma once

#include "model/forge/variant.hpp"

namespace anvil::forge {

// The bytes of a data file's name, NUL-padded (in its name entry and its 440-byte header).
inline constexpr std::size_t kDataFileNameSize = 128;

struct NameEntry {
  u32 raw_size = 0;
  Opaque<12> unknown_0;
  Id32 file_type;  // JSON "0x" + 8 hex digits, as ids are
  Opaque<24> unknown_1;
  FixedString<kDataFileNameSize> name;
  Opaque<16> unknown_2;
  Opaque<4> unknown_27;  // version 27 only

  template <class Archive>
  void serialize(Archive& ar, unsigned version) {
    ar& make_nvp("raw_size", raw_size);
    ar& make_nvp("unknown_0", unknown_0);
    ar& make_nvp("file_type", file_type);
    ar& make_nvp("unknown_1", unknown_1);
    ar& make_nvp("name", name);
    ar& make_nvp("unknown_2", unknown_2);
    ar& only_if(ForgeVariant::of(version).kept_27(), kKept27, [&](auto& a) { a& make_nvp("unknown_27", unknown_27); });
  }
};

}  // namespace anvil::forge
