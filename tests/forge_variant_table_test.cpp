// The per-variant table (model/forge/variant_table.hpp) and the resolved variant (reader/forge/
// variant_resolver.hpp): the texts built from the rows are the contract's words, and an archive's layout is set
// once, detection trying candidates without changing the archive.
#include <gtest/gtest.h>

#include <optional>
#include <stdexcept>
#include <string_view>
#include <vector>

#include "gen/forge.hpp"
#include "model/forge/archive.hpp"
#include "model/forge/variant.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/forge/variant_resolver.hpp"

namespace anvil::forge {
namespace {

TEST(ForgeVariantTable, ConditionsAreTheContractsWords) {
  EXPECT_STREQ(kWideIds, "archive_version == 27");
  EXPECT_STREQ(kNoFileHeader, "archive_version == 27");
  EXPECT_STREQ(kKept27, "archive_version == 27");
  EXPECT_STREQ(kVersionTail, "archive_version == 26 and data_layout != 0");
  EXPECT_STREQ(kPrefixPairs, "data_layout == 1");
  EXPECT_STREQ(kPrefixBytes, "data_layout == 2");
  EXPECT_STREQ(kWideCounts, "data_layout == 3");
  EXPECT_STREQ(kWideEntries, "data_layout >= 2");
  EXPECT_STREQ(kExtra, "data_layout != 0");
  EXPECT_STREQ(kTableTail, "data_layout == 1");
}

TEST(ForgeVariantTable, AConditionNamesTheValuesItHolds) {
  const std::array<u32, 4> versions = {25, 26, 27, 28};
  EXPECT_EQ(variant_table::condition("v", versions, {false, false, true, true}).view(), "v >= 27");
  EXPECT_EQ(variant_table::condition("v", versions, {false, true, false, false}).view(), "v == 26");
  EXPECT_EQ(variant_table::condition("v", versions, {true, true, false, true}).view(), "v != 27");
  EXPECT_EQ(variant_table::condition("v", versions, {true, false, true, false}).view(), "v == 25 or v == 27");
}

TEST(ForgeVariantTable, MessagesListTheRows) {
  EXPECT_STREQ(known_versions(), "25, 26 or 27");
  EXPECT_STREQ(known_layouts(), "0, 1, 2 or 3");
  EXPECT_STREQ(known_compression_ids(), "0, 1, 2 or 5");
  EXPECT_STREQ(known_compression_names(), "plain, lzo1x, lzo2a or lzo1c");
  EXPECT_STREQ(variant_text::kCompressionMustBe.c_str(), "compression must be 0, 1 (LZO1X), 2 (LZO2A) or 5 (LZO1C)");
  EXPECT_STREQ(variant_text::kOodle.c_str(),
               "compression 4, 7 and 8 are Oodle (later games), which anvilrt does not decompress");
}

TEST(ForgeVariantTable, CompressionIdsNamesAndAlgorithms) {
  EXPECT_EQ(compression_of(0), Compression::lzo1x);
  EXPECT_EQ(compression_of(1), Compression::lzo1x);
  EXPECT_EQ(compression_of(2), Compression::lzo2a);
  EXPECT_EQ(compression_of(5), Compression::lzo1c);
  EXPECT_FALSE(compression_of(3).has_value());
  EXPECT_TRUE(is_oodle(7));
  for (Compression c : {Compression::plain, Compression::lzo1x, Compression::lzo2a, Compression::lzo1c})
    EXPECT_EQ(compression_named(compression_name(c)), c);
  EXPECT_EQ(compression_id(Compression::lzo1x), 1);
  EXPECT_EQ(compression_id(Compression::lzo2a), 2);
  EXPECT_EQ(compression_id(Compression::lzo1c), 5);
}

TEST(ForgeVariantTable, LikeliestLayoutsPerVersion) {
  auto list = [](u32 version) {
    auto s = plausible_layouts(version);
    return std::vector<u8>(s.begin(), s.end());
  };
  EXPECT_EQ(list(25), (std::vector<u8>{1, 0, 2, 3}));
  EXPECT_EQ(list(26), (std::vector<u8>{1, 2, 3, 0}));
  EXPECT_EQ(list(27), (std::vector<u8>{3, 2, 1, 0}));
}

TEST(ForgeResolvedVariant, ALayoutIsSetOnce) {
  Archive archive;
  archive.header.version = 27;
  EXPECT_FALSE(archive.resolved());
  EXPECT_EQ(archive.variant().layout, 3);  // the version's likeliest until resolved
  resolve_layout(archive, 2);
  EXPECT_TRUE(archive.resolved());
  EXPECT_EQ(archive.variant(), (ForgeVariant{27, 2}));
  EXPECT_THROW(resolve_layout(archive, 1), std::logic_error);
  EXPECT_EQ(archive.variant().layout, 2);
}

TEST(ForgeResolvedVariant, DetectionTriesCandidatesWithoutChangingTheArchive) {
  gen::ForgeOptions o;
  o.version = 26;
  o.layout = 2;  // not the version's likeliest: detection tries layout 1 first
  o.datafiles = 3;
  o.visuals = 3;
  o.seed = 11;
  const std::vector<u8> bytes = gen::generate_forge(o);
  auto tables = read_archive_tables(bytes);
  ASSERT_TRUE(tables.ok()) << tables.status();
  EXPECT_EQ(detect_layout(bytes, *tables), 2);
  EXPECT_FALSE(tables->resolved());
  EXPECT_EQ(tables->variant().layout, 1);

  auto opened = open_archive(bytes, nullptr, {});
  ASSERT_TRUE(opened.ok()) << opened.status();
  EXPECT_TRUE(opened->archive.resolved());
  EXPECT_EQ(opened->archive.variant().layout, 2);
  EXPECT_EQ(opened->game, Game::ac2);

  auto deferred = open_archive(bytes, nullptr, {.layout = std::nullopt, .game = std::nullopt, .deferred = true});
  ASSERT_TRUE(deferred.ok()) << deferred.status();
  EXPECT_FALSE(deferred->archive.resolved());
  EXPECT_FALSE(deferred->game.has_value());

  auto named = open_archive(bytes, nullptr, {.layout = 3, .game = Game::sws, .deferred = true});
  ASSERT_TRUE(named.ok()) << named.status();
  EXPECT_EQ(named->archive.variant().layout, 3);
  EXPECT_EQ(named->game, Game::sws);
}

}  // namespace
}  // namespace anvil::forge
