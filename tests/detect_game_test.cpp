// `--game auto` (reader/level.hpp detect()): a small file is judged whole; a large one on windows, with
// the whole file deciding when the windows carve the same in both dialects.
#include <gtest/gtest.h>

#include <cstring>

#include "gen/generator.hpp"
#include "pipeline/verify.hpp"
#include "reader/level.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

std::vector<u8> generated(Game game, u64 visuals, u64 seed) {
  gen::Options o;
  o.game = game;
  o.visuals = visuals;
  o.seed = seed;
  return gen::generate_bytes(o);
}

TEST(DetectGame, SmallFilesAreJudgedWhole) {
  for (Game game : kGames)
    for (const std::string& file : test::corpus_files(std::string(game_name(game)))) {
      auto bytes = test::read_file(file);
      Detection d = detect(bytes);
      EXPECT_TRUE(d.whole_file) << file;
      EXPECT_EQ(d.game, game) << file;
      EXPECT_EQ(d.ac2_bytes, carved_bytes(bytes, Game::ac2)) << file;
      EXPECT_EQ(d.sws_bytes, carved_bytes(bytes, Game::sws)) << file;
    }
  EXPECT_EQ(detect({}).game, Game::ac2) << "a tie is ac2";
}

TEST(DetectGame, LargeFilesAreJudgedOnWindows) {
  for (Game game : kGames) {
    // Over kDetectWindows windows: ac2 Visuals average ~700 bytes, sws ~150.
    auto bytes = generated(game, game == Game::ac2 ? 5000 : 25000, 5);
    ASSERT_GT(bytes.size(), kDetectWindows * kDetectWindow);
    Detection d = detect(bytes);
    EXPECT_FALSE(d.whole_file) << game_name(game);
    EXPECT_EQ(d.game, game);
    // Only the windows were carved.
    EXPECT_LT(d.ac2_bytes + d.sws_bytes, kDetectWindows * kDetectWindow);
    EXPECT_GT(game == Game::ac2 ? d.ac2_bytes : d.sws_bytes, 0u);
  }
}

TEST(DetectGame, LevelDataBetweenTheWindowsIsFoundByTheWholeFile) {
  // 20 MiB of zeros, the windows start at 0, 2.8, 5.6, ... MiB; a small sws level at 4 MiB, between two.
  std::vector<u8> bytes(20 * kDetectWindow, 0);
  auto level = generated(Game::sws, 40, 9);
  ASSERT_LT(level.size(), kDetectWindow / 2);
  std::memcpy(bytes.data() + 4 * kDetectWindow, level.data(), level.size());
  Detection d = detect(bytes);
  EXPECT_TRUE(d.whole_file);
  EXPECT_EQ(d.game, Game::sws);
  EXPECT_EQ(d.sws_bytes, carved_bytes(bytes, Game::sws));
  EXPECT_GT(d.sws_bytes, 0u);
}

TEST(DetectGame, WindowsDecideAMixedFileByWhatTheyHold) {
  // The documented limit of the rule: a little sws data under every window and more ac2 data between the
  // windows is read as sws, though the whole file carves more as ac2. Nothing is lost: the ac2 bytes stay
  // opaque and verify gives the file back (and --game ac2 reads them as objects).
  std::vector<u8> bytes(20 * kDetectWindow, 0);
  auto sws = generated(Game::sws, 100, 2);
  auto ac2 = generated(Game::ac2, 2500, 3);
  ASSERT_LT(sws.size(), kDetectWindow / 8);
  ASSERT_GT(ac2.size(), kDetectWindow + kDetectWindow / 2);
  const std::size_t last_start = bytes.size() - kDetectWindow;
  for (std::size_t i = 0; i < kDetectWindows; ++i) {
    std::size_t at = i == kDetectWindows - 1 ? last_start : last_start / (kDetectWindows - 1) * i;
    std::memcpy(bytes.data() + at, sws.data(), sws.size());
    // Between this window's end and the next window's start: 1.5 windows' worth of ac2 data.
    if (i + 1 < kDetectWindows)
      std::memcpy(bytes.data() + at + kDetectWindow + 4096, ac2.data(), kDetectWindow * 3 / 2);
  }
  Detection d = detect(bytes);
  EXPECT_FALSE(d.whole_file);
  EXPECT_EQ(d.game, Game::sws);
  EXPECT_GT(carved_bytes(bytes, Game::ac2), 4 * carved_bytes(bytes, Game::sws));
  VerifyReport report = verify_bytes(bytes, Game::sws, false);
  EXPECT_TRUE(report.identical()) << report.difference;
  EXPECT_EQ(report.objects, 8 * carve_level(sws, Game::sws).object_count());
}

}  // namespace
}  // namespace anvil
