// A block set (FORGE.md 2): the compression magic and header, then either a table of blocks
// (max_size != 0; a second set follows) or chunks to the end of the stored data file (max_size = 0).
#pragma once

#include "model/forge/block.hpp"
#include "model/forge/chunk.hpp"
#include "model/forge/variant.hpp"

namespace anvil::forge {

struct BlockSet {
  static constexpr u64 kMagic = 0x1004FA99'57FBAA33;  // 33 AA FB 57 99 FA 04 10
  static constexpr std::size_t min_wire_size = 8 + 2 + 1 + 2 + 2;

  u8 compression = 0;  // an id of kCompressionIds (model/forge/variant_table.hpp)
  u16 block_size = 0x8000;
  u16 max_size = 0;
  std::vector<Block> blocks;  // max_size != 0
  std::vector<Chunk> chunks;  // max_size = 0

  template <class Archive>
  void serialize(Archive& ar, unsigned version) {
    const bool wide = ForgeVariant::of(version).wide_counts();
    ar& expect<u64>(kMagic, "compression magic");
    ar& expect_named<u16>("version", 1);
    ar& make_nvp("compression", compression);
    ar& require(!is_oodle(compression), 1, variant_text::kOodle.c_str(), compression);
    ar& require(compression_of(compression).has_value(), 1, variant_text::kCompressionMustBe.c_str(), compression);
    ar& make_nvp("block_size", block_size);
    ar& make_nvp("max_size", max_size);
    ar& either(
        max_size != 0, "max_size != 0",
        [&](auto& a) {
          // the block count: u32 in layout 3 (FORGE.md 7); each form holds its table and the bodies it sizes
          a& either(
              wide, kWideCounts,
              [&](auto& w) {
                w& heads<u32>("blocks", blocks);
                w& bodies("block_data", blocks);
              },
              [&](auto& w) {
                w& heads<u16>("blocks", blocks);
                w& bodies("block_data", blocks);
              });
        },
        [&](auto& a) { a& until_end("chunks", chunks); });
  }
};

}  // namespace anvil::forge
