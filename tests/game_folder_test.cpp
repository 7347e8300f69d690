// Game folders as a target (docs/game-folders.md), through the binary, on generated folders of both
// dialects: addressing (/archives/..., /objects/KEY across archives, a key in two archives refused), patch
// DIR in place and -o, the all-or-nothing outcome, and verify, ls, stats and diff of folders.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/game_folder_support.hpp"

namespace anvil::test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

class GameFolder : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    generate_game_folder(dir_, GetParam(), {"A.forge", "B.forge", "C.forge"}, {11, 12, 13});
    for (const char* name : {"A.forge", "B.forge", "C.forge"}) keys_[name] = archive_keys(dir_ + "/" + name);
    before_ = snapshot_folder(dir_);
  }
  // The first key of data file d of an archive.
  std::string key(const std::string& archive, std::size_t d = 0) { return keys_[archive].at(d).second.at(0); }
  std::string datafile(const std::string& archive, std::size_t d) { return keys_[archive].at(d).first; }
  std::string write_patch(const std::string& name, const std::string& text) {
    std::string path = tmp_.path(name);
    write_file(path, std::span(reinterpret_cast<const u8*>(text.data()), text.size()));
    return path;
  }
  static std::string deactivate(const std::string& pointer) {
    return R"({"op":"test","path":")" + pointer + R"(/active","value":1},{"op":"replace","path":")" + pointer +
           R"(/active","value":0})";
  }
  // The three archives patched each on its own (`patch A.forge`), for comparison with `patch DIR`.
  FolderSnapshot patched_one_by_one(const std::vector<std::pair<std::string, std::string>>& patches) {
    FolderSnapshot expected = before_;
    for (const auto& [archive, text] : patches) {
      std::string out = tmp_.path("single-" + archive);
      CliResult r =
          run_cli({"patch", dir_ + "/" + archive, write_patch("single-" + archive + ".json", text), "-o", out});
      EXPECT_EQ(r.exit_code, 0) << r.err;
      expected[archive] = read_file(out);
    }
    return expected;
  }
  // A patch over the three archives, each addressed another way.
  std::string three_archive_patch() {
    return "[" + deactivate("/objects/" + key("A.forge")) + "," +
           deactivate("/archives/B.forge/objects/" + key("B.forge", 1)) + "," +
           deactivate("/archives/C.forge/datafiles/" + datafile("C.forge", 0) + "/objects/" + key("C.forge")) + "]";
  }
  FolderSnapshot three_archive_expected() {
    return patched_one_by_one({{"A.forge", "[" + deactivate("/objects/" + key("A.forge")) + "]"},
                               {"B.forge", "[" + deactivate("/objects/" + key("B.forge", 1)) + "]"},
                               {"C.forge", "[" + deactivate("/objects/" + key("C.forge")) + "]"}});
  }

  TempDir tmp_;
  std::string dir_ = tmp_.path("game");
  std::map<std::string, std::vector<std::pair<std::string, std::vector<std::string>>>> keys_;
  FolderSnapshot before_;
};

TEST_P(GameFolder, PatchInPlaceEqualsEachArchivePatchedOnItsOwn) {
  FolderSnapshot expected = three_archive_expected();
  CliResult r = run_cli({"patch", dir_, write_patch("p.json", three_archive_patch()), "--in-place"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(snapshot_folder(dir_), expected);
  for (const auto& [name, bytes] : expected) EXPECT_NE(bytes, before_[name]) << name;
  EXPECT_FALSE(fs::exists(dir_ + "/.anvilrt/journal"));
}

TEST_P(GameFolder, PatchToANewFolderCopiesTheUnchangedArchives) {
  std::string text = "[" + deactivate("/objects/" + key("B.forge")) + "]";
  FolderSnapshot expected = patched_one_by_one({{"B.forge", text}});
  std::string out = tmp_.path("out");
  CliResult r = run_cli({"patch", dir_, write_patch("p.json", text), "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(snapshot_folder(out), expected);
  EXPECT_EQ(snapshot_folder(dir_), before_);  // DIR itself untouched
  // A second -o onto a folder that is not empty is refused, naming it.
  r = run_cli({"patch", dir_, write_patch("p.json", text), "-o", out});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(out + ": not empty"));
}

TEST_P(GameFolder, DryRunNamesFolderPointersAndWritesNothing) {
  CliResult r = run_cli({"patch", dir_, write_patch("p.json", three_archive_patch()), "--dry-run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("/archives/A.forge/datafiles/" + datafile("A.forge", 0) + "/objects/" + key("A.forge") +
                               "/active: 1 -> 0"));
  EXPECT_THAT(r.out, HasSubstr("3 objects would change in 3 data files of 3 archives"));
  EXPECT_EQ(snapshot_folder(dir_), before_);
}

TEST_P(GameFolder, TheFirstFailingOperationIsTheErrorAndNothingIsWritten) {
  // Op 2 (in C) fails its test; ops 0 and 1 (in A and B) would succeed: nothing is written.
  std::string text = "[" + deactivate("/objects/" + key("A.forge")) + "," + R"({"op":"test","path":"/objects/)" +
                     key("C.forge") + R"(/active","value":7},)" + deactivate("/objects/" + key("B.forge")) + "]";
  CliResult r = run_cli({"patch", dir_, write_patch("p.json", text), "--in-place"});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("op 2 (/objects/" + key("C.forge") + "/active)"));
  EXPECT_THAT(r.err, HasSubstr("archive C.forge"));
  EXPECT_EQ(snapshot_folder(dir_), before_);
  // A key no archive holds.
  r = run_cli(
      {"patch", dir_, write_patch("q.json", "[" + deactivate("/objects/0x0000000000000001") + "]"), "--in-place"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("op 0"));
  EXPECT_THAT(r.err, HasSubstr("in any archive of the folder"));
}

TEST_P(GameFolder, AKeyInTwoArchivesIsRefusedByObjectsAndNamedByArchives) {
  // D.forge is A.forge again: every key of A is in two archives.
  fs::copy_file(dir_ + "/A.forge", dir_ + "/D.forge");
  before_ = snapshot_folder(dir_);
  const std::string k = key("A.forge");
  CliResult r = run_cli({"patch", dir_, write_patch("p.json", "[" + deactivate("/objects/" + k) + "]"), "--in-place"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("the object key \"" + k + "\" is in several archives (A.forge, D.forge)"));
  EXPECT_THAT(r.err, HasSubstr("/archives/FILE.forge/objects/" + k));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(snapshot_folder(dir_), before_);
  // Bulk operations look their keys up the same way.
  r = run_cli({"patch", dir_,
               write_patch("b.json", R"([{"op":"transform","objects":[")" + k + R"("],"translate":[1,2,3]}])"),
               "--in-place"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("is in several archives (A.forge, D.forge)"));
  // Named by its archive, it is patched there only.
  r = run_cli(
      {"patch", dir_, write_patch("q.json", "[" + deactivate("/archives/D.forge/objects/" + k) + "]"), "--in-place"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  FolderSnapshot now = snapshot_folder(dir_);
  EXPECT_EQ(now["A.forge"], before_["A.forge"]);
  EXPECT_NE(now["D.forge"], before_["D.forge"]);
}

TEST_P(GameFolder, VerifyLsAndStatsTakeTheFolder) {
  CliResult r = run_cli({"verify", dir_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("verified 3 files: 3 identical"));
  r = run_cli({"ls", dir_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  for (const char* name : {"A.forge:", "B.forge:", "C.forge:"}) EXPECT_THAT(r.out, HasSubstr(name));
  r = run_cli({"stats", dir_, "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  // anvilrt's own state folder is not level data: a patch leaves it, and verify still reads 3 files.
  ASSERT_EQ(run_cli({"patch", dir_, write_patch("p.json", three_archive_patch()), "--in-place"}).exit_code, 0);
  ASSERT_TRUE(fs::exists(dir_ + "/.anvilrt/lock"));
  r = run_cli({"verify", dir_});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("verified 3 files: 3 identical"));
  // Not a game folder: one line naming it.
  fs::create_directories(tmp_.path("empty"));
  r = run_cli({"patch", tmp_.path("empty"), write_patch("q.json", "[]"), "--dry-run"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(tmp_.path("empty") + ": holds no .forge archive"));
}

TEST_P(GameFolder, DiffOfTwoFoldersIsAPatchThatGivesTheSecond) {
  std::string other = tmp_.path("other");
  ASSERT_EQ(run_cli({"patch", dir_, write_patch("p.json", three_archive_patch()), "-o", other}).exit_code, 0);
  CliResult d = run_cli({"diff", dir_, other});
  ASSERT_EQ(d.exit_code, 1) << d.err;
  EXPECT_THAT(d.out, HasSubstr("\"/archives/B.forge/datafiles/"));
  EXPECT_THAT(d.err, HasSubstr("archive C.forge, data file " + datafile("C.forge", 0) + ": changed: 1 field"));
  CliResult r = run_cli({"patch", dir_, write_patch("d.json", d.out), "--in-place"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(snapshot_folder(dir_), snapshot_folder(other));
  d = run_cli({"diff", dir_, other});
  EXPECT_EQ(d.exit_code, 0) << d.err;
  EXPECT_EQ(d.out, "[]\n");
  // An archive in one folder only is said, and the folders differ.
  fs::remove(other + "/B.forge");
  d = run_cli({"diff", dir_, other});
  EXPECT_EQ(d.exit_code, 1);
  EXPECT_THAT(d.err, HasSubstr("archive B.forge: only in " + dir_));
}

INSTANTIATE_TEST_SUITE_P(Games, GameFolder, ::testing::Values("ac2", "sws"));

}  // namespace
}  // namespace anvil::test
