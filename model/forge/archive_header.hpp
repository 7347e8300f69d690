// The archive header of a `.forge` (FORGE.md 1, 7): magic, version 25, 26 or 27, the offset H of the
// first file-data header, and every byte up to H kept. Its version is the context (model/forge/variant.hpp)
// every later structure of the archive is read with.
#pragma once

#include "model/forge/variant.hpp"

namespace anvil::forge {

struct ArchiveHeader {
  static constexpr u64 kMagic = 0x72617469'6d696373;           // "scimitar"
  static constexpr u32 kVersion = ForgeVariant::kFirst;        // Assassin's Creed I, II, Brotherhood, Revelations
  static constexpr std::size_t min_wire_size = 8 + 1 + 4 + 8;  // the fixed fields; H is at least this

  u8 unknown = 0;
  u32 version = kVersion;
  u64 first_header = 0;   // H; written as min_wire_size + the kept bytes
  OpaqueBytes unknown_1;  // the H - 0x15 bytes between the fixed fields and H

  template <class Archive>
  void serialize(Archive& ar, unsigned /*version*/) {
    if constexpr (Archive::is_saving::value) first_header = min_wire_size + unknown_1.bytes.size();
    ar& expect<u64>(kMagic, "magic \"scimitar\"");
    ar& make_nvp("unknown", unknown);
    ar& make_nvp("version", version);
    ar& require(ForgeVariant::known(version), sizeof version, variant_text::kVersionMustBe.data(), version);
    ar& make_nvp("first_header", first_header);
    ar& require(first_header >= min_wire_size, sizeof first_header,
                "the first file-data header H must lie after the archive header", first_header);
    ar& sized_bytes("unknown_1", unknown_1, first_header - min_wire_size, "first_header");
  }
};

}  // namespace anvil::forge
