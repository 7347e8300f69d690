// The key cache of a game folder (pipeline/folder_key_cache.hpp): its file read back as written, a damaged
// one read as empty, never made in a folder anvilrt has not written to, and a look-up through it answering
// as one without it, also after an archive changed behind its back.
#include "pipeline/folder_key_cache.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/game_folder_support.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

namespace fs = std::filesystem;

folder::DataFilePrint print(u64 size, u32 crc) { return {Game::ac2, size, crc, 7}; }

TEST(FolderKeyCache, ReadBackAsWritten) {
  test::TempDir dir;
  const std::string game = dir.path("game");
  fs::create_directories(fs::path(game) / ".anvilrt");
  {
    folder::KeyCache cache = folder::KeyCache::load(game);
    EXPECT_EQ(cache.find(print(10, 1)), nullptr);
    cache.add(print(10, 1), {9, 3, 5});
    cache.add(print(20, 2), {});
    forge::ChecksumVote vote;
    vote.blocks = 4;
    vote.matched[1] = 3;
    cache.add_vote(print(20, 2), vote);
    cache.add_vote({Game::sws, 10, 1, 7}, vote);
    ASSERT_TRUE(cache.save().ok());
  }
  folder::KeyCache cache = folder::KeyCache::load(game);
  const std::vector<u64>* ids = cache.find(print(10, 1));
  ASSERT_NE(ids, nullptr);
  EXPECT_EQ(*ids, (std::vector<u64>{3, 5, 9}));
  ASSERT_NE(cache.find(print(20, 2)), nullptr);
  EXPECT_TRUE(cache.find(print(20, 2))->empty());
  EXPECT_EQ(cache.find(print(20, 3)), nullptr);
  EXPECT_EQ(cache.find_vote(print(10, 1)), nullptr);
  const forge::ChecksumVote* vote = cache.find_vote(print(20, 2));
  ASSERT_NE(vote, nullptr);
  EXPECT_EQ(vote->blocks, 4u);
  EXPECT_EQ(vote->matched[1], 3u);
  // The dialect is part of the print: the sws entry holds a vote and no ids.
  EXPECT_EQ(cache.find({Game::sws, 10, 1, 7}), nullptr);
  EXPECT_NE(cache.find_vote({Game::sws, 10, 1, 7}), nullptr);
}

TEST(FolderKeyCache, ADamagedFileReadsAsEmpty) {
  test::TempDir dir;
  const std::string game = dir.path("game");
  const fs::path file = fs::path(game) / ".anvilrt" / "keys.cache";
  fs::create_directories(file.parent_path());
  {
    folder::KeyCache cache = folder::KeyCache::load(game);
    cache.add(print(10, 1), {1, 2, 3});
    cache.add(print(11, 1), {4});
    ASSERT_TRUE(cache.save().ok());
  }
  const std::vector<u8> whole = test::read_file(file.string());
  // Cut at every length, and every byte of the head changed: each reads as empty or as the whole, never
  // crashes, never reads past the bytes.
  for (std::size_t n = 0; n < whole.size(); ++n) {
    test::write_file(file.string(), std::span<const u8>(whole.data(), n));
    folder::KeyCache cache = folder::KeyCache::load(game);
    EXPECT_EQ(cache.find(print(10, 1)), nullptr) << "cut at " << n;
  }
  std::vector<u8> damaged = whole;
  damaged.push_back(0);
  test::write_file(file.string(), damaged);
  EXPECT_EQ(folder::KeyCache::load(game).find(print(10, 1)), nullptr) << "a byte past the end";
  damaged = whole;
  damaged[16] = 0xff;  // the first entry's dialect
  test::write_file(file.string(), damaged);
  EXPECT_EQ(folder::KeyCache::load(game).find(print(10, 1)), nullptr) << "an unknown dialect";
  test::write_file(file.string(), whole);
  EXPECT_NE(folder::KeyCache::load(game).find(print(10, 1)), nullptr);
}

class FolderKeyCacheCli : public ::testing::Test {
 protected:
  void SetUp() override {
    game_ = dir_.path("game");
    test::generate_game_folder(game_, "ac2", {"a1.forge", "a2.forge"}, {1, 2}, 3, 2);
    // The first key of a1's last data file, addressed through the folder.
    const auto keys = test::archive_keys(game_ + "/a1.forge");
    ASSERT_EQ(keys.size(), 3u);
    key_ = keys.back().second.front();
    mod_ = dir_.path("mod.json");
    std::ofstream(mod_) << "[{\"op\": \"replace\", \"path\": \"/objects/" << key_ << "/managed\", \"value\": 1}]";
  }
  std::string cache() const { return game_ + "/.anvilrt/keys.cache"; }

  test::TempDir dir_;
  std::string game_, key_, mod_;
};

TEST_F(FolderKeyCacheCli, NotMadeInAFolderAnvilrtHasNotWrittenTo) {
  test::CliResult r = test::run_cli({"mod", "check", game_, mod_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(game_ + "/.anvilrt")) << "mod check writes nothing into a folder anvilrt has not written to";
}

TEST_F(FolderKeyCacheCli, ALookUpThroughTheCacheAnswersAsWithout) {
  const test::CliResult without = test::run_cli({"mod", "check", game_, mod_});
  ASSERT_EQ(without.exit_code, 0) << without.err;
  fs::create_directory(game_ + "/.anvilrt");
  const test::CliResult learning = test::run_cli({"mod", "check", game_, mod_});
  ASSERT_TRUE(fs::exists(cache())) << "the cache is kept once anvilrt has its folder there";
  const auto written = fs::last_write_time(cache());
  const test::CliResult through = test::run_cli({"mod", "check", game_, mod_});
  EXPECT_EQ(learning.out, without.out);
  EXPECT_EQ(through.out, without.out);
  EXPECT_EQ(through.exit_code, 0);
  EXPECT_EQ(fs::last_write_time(cache()), written) << "a cache that learnt nothing is not written again";

  // An archive changed behind the cache's back: a2 now holds a1's objects, so the key is in both, which the
  // cache (knowing a2's old data files only) must not hide.
  // Removed, then copied: MinGW's libstdc++ refuses copy_options::overwrite_existing ("File exists").
  fs::remove(game_ + "/a2.forge");
  fs::copy_file(game_ + "/a1.forge", game_ + "/a2.forge");
  const test::CliResult twice = test::run_cli({"mod", "check", game_, mod_});
  EXPECT_EQ(twice.exit_code, 1) << twice.out << twice.err;
  EXPECT_NE(twice.out.find("several archives (a1.forge, a2.forge)"), std::string::npos) << twice.out;
}

TEST_F(FolderKeyCacheCli, InstallAndUninstallKeepItTrue) {
  // install writes the archive the mod changes; its other data files stay known by their content.
  test::CliResult r = test::run_cli({"mod", "install", game_, mod_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_TRUE(fs::exists(cache()));
  r = test::run_cli({"mod", "check", game_, mod_});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  r = test::run_cli({"mod", "uninstall", game_, "mod"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run_cli({"patch", game_, mod_, "--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
}

}  // namespace
}  // namespace anvil
