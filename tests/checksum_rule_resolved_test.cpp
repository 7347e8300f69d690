// The checksum rule is part of an archive's resolved variant (reader/forge/variant_resolver.hpp
// checksum_rule(), Archive::checksums()): nothing is voted until a reader needs the rule, the vote is taken
// once however many threads ask, it is set once (a second set throws, as a second layout does), and a copy
// of the archive starts without it.
#include <gtest/gtest.h>

#include <atomic>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "reader/forge/archive_levels.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/forge/variant_resolver.hpp"
#include "tests/test_support.hpp"

namespace anvil::forge {
namespace {

std::vector<u8> corpus_archive(const char* name) {
  return test::read_file(std::string(ANVILRT_CORPUS) + "/forge/" + name);
}

TEST(ResolvedChecksums, OpeningVotesNothingAndTheRuleIsSetOnce) {
  const std::vector<u8> bytes = corpus_archive("ac2_five_forms.forge");
  auto opened = open_archive(bytes, nullptr, {});  // the layout and the dialect found by content
  ASSERT_TRUE(opened.ok()) << opened.status();
  const Archive& archive = opened->archive;
  EXPECT_EQ(archive.checksums(), nullptr) << "opening an archive does not vote";
  const ArchiveChecksums voted = archive_checksums(bytes, archive);
  resolve_checksums(archive, voted);
  ASSERT_NE(archive.checksums(), nullptr);
  EXPECT_EQ(archive.checksums()->verdict.name(), voted.verdict.name());
  EXPECT_THROW(resolve_checksums(archive, voted), std::logic_error);
  // The resolver hands out the rule set, without reading a byte.
  EXPECT_EQ(&checksum_rule({}, archive), archive.checksums());
}

TEST(ResolvedChecksums, VotedOnceHoweverManyThreadsAsk) {
  const std::vector<u8> bytes = corpus_archive("ac2_five_forms.forge");
  auto archive = read_archive(bytes);
  ASSERT_TRUE(archive.ok()) << archive.status();
  std::atomic<std::size_t> spans{0};  // stored spans the votes read
  auto count = [&](u64, u64) { ++spans; };
  std::size_t one_vote = 0;
  const ArchiveChecksums expected = archive_checksums(bytes, *archive, [&](u64, u64) { ++one_vote; });
  ASSERT_GT(one_vote, 0u);
  std::vector<const ArchiveChecksums*> got(8);
  std::vector<std::thread> threads;
  for (std::size_t t = 0; t < got.size(); ++t)
    threads.emplace_back([&, t] { got[t] = &checksum_rule(bytes, *archive, count, 2); });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(spans.load(), one_vote) << "one vote, not one per caller";
  for (const ArchiveChecksums* g : got) EXPECT_EQ(g, archive->checksums());
  EXPECT_EQ(archive->checksums()->verdict.describe(), expected.verdict.describe());
  EXPECT_THROW(resolve_checksums(*archive, expected), std::logic_error);

  const Archive copy = *archive;
  EXPECT_EQ(copy.checksums(), nullptr) << "a copy may become another archive: it votes again";
  const Archive moved = std::move(*archive);
  EXPECT_NE(moved.checksums(), nullptr);
}

TEST(ResolvedChecksums, OnlyAReaderOfBlocksVotes) {
  const std::vector<u8> bytes = corpus_archive("ac2_five_forms.forge");
  auto archive = read_archive(bytes);
  ASSERT_TRUE(archive.ok()) << archive.status();
  ArchiveLevels levels(bytes, *archive, Game::ac2);
  // Names, selection and where each data file lies come from the tables: no vote.
  for (std::size_t i = 0; i < levels.size(); ++i) {
    EXPECT_FALSE(levels.name(i).empty());
    EXPECT_FALSE(levels.select(levels.name(i)).empty());
    (void)levels.stored_extent(i);
  }
  EXPECT_EQ(archive->checksums(), nullptr);
  // The first data file decompressed checks its blocks: the archive votes, once, for every reader.
  ASSERT_TRUE(levels.level(0).ok());
  ASSERT_NE(archive->checksums(), nullptr);
  EXPECT_EQ(&levels.checksums(), archive->checksums());
}

}  // namespace
}  // namespace anvil::forge
