// signature_ids (reader/signature_ids.hpp), what a game folder's key cache keeps: every object the carve
// finds has its id among them, and so has every candidate the carve rejects, in level files of both
// dialects (the corpus, near misses included) and in the bodies of generated archives' data files.
#include "reader/signature_ids.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>

#include "gen/forge.hpp"
#include "model/dialect.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/level.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

bool holds(const std::vector<u64>& sorted, u64 id) { return std::binary_search(sorted.begin(), sorted.end(), id); }

TEST(SignatureIds, HoldEveryCarvedObjectAndEveryRejectedCandidate) {
  std::size_t objects = 0, rejected = 0;
  for (Game game : {Game::ac2, Game::sws}) {
    const std::size_t width = dialect::facts(game).id_width;
    for (const std::string& path : test::corpus_files(std::string(game_name(game)))) {
      const std::vector<u8> bytes = test::read_file(path);
      const Extent whole{0, bytes.size()};
      const std::vector<u64> ids = signature_ids(bytes, game, {&whole, 1});
      ASSERT_TRUE(std::is_sorted(ids.begin(), ids.end())) << path;
      EXPECT_EQ(std::adjacent_find(ids.begin(), ids.end()), ids.end()) << path << ": an id twice";
      std::vector<u64> missed;
      const Level level = carve_level(bytes, game, {}, [&](const NearMiss& miss) {
        // The candidate's id: right before its class id (sws: after a `managed` byte).
        const std::size_t class_at = dialect::class_offset(*dialect::find_kind(game, miss.class_name));
        u64 id = 0;
        std::memcpy(&id, bytes.data() + miss.offset + class_at - width, width);
        ++rejected;
        if (!holds(ids, id)) missed.push_back(id);
      });
      for (const Piece& p : level.pieces)
        if (p.is_object()) {
          ++objects;
          EXPECT_TRUE(holds(ids, p.id)) << path << ": the object at 0x" << std::hex << p.offset;
        }
      EXPECT_TRUE(missed.empty()) << path << ": " << missed.size() << " rejected candidates' ids missing";
    }
  }
  EXPECT_GT(objects, 0u);
  EXPECT_GT(rejected, 0u) << "the corpus has near misses (ac2/near_misses.bin): the superset is tested";
}

TEST(SignatureIds, OfADataFileHoldTheIdsOfItsObjects) {
  for (Game game : {Game::ac2, Game::sws}) {
    const std::vector<u8> bytes = gen::generate_forge({game, 5, 6, 7, 700});
    auto archive = forge::read_archive(bytes);
    ASSERT_TRUE(archive.ok()) << archive.status();
    forge::ArchiveLevels levels(bytes, *archive, game);
    std::vector<std::size_t> all(levels.size());
    for (std::size_t i = 0; i < all.size(); ++i) all[i] = i;
    auto ids = levels.signature_ids(all, 2);
    ASSERT_TRUE(ids.ok()) << ids.status();
    for (std::size_t i = 0; i < all.size(); ++i) {
      auto level = levels.level(i);
      ASSERT_TRUE(level.ok()) << level.status();
      std::size_t objects = 0;
      for (const Piece& p : (*level)->pieces)
        if (p.is_object()) {
          ++objects;
          EXPECT_TRUE(holds((*ids)[i], p.id)) << game_name(game) << " data file " << i;
        }
      EXPECT_GT(objects, 0u);
      EXPECT_GE((*ids)[i].size(), std::min<std::size_t>(objects, 1));
    }
  }
}

}  // namespace
}  // namespace anvil
