// A mod package's data file that its archive lacks (docs/mods.md, Mod packages: --allow-new), through the
// binary: refused without the option, naming it, and nothing written; added with it, whether shipped as a
// data file (AnvilToolkit's "<id>_-_<name>.data") or inside a whole archive; two mods that add one name
// with different bytes conflict there; uninstall and sync give the original bytes back.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/game_folder_support.hpp"
#include "tests/test_support.hpp"

namespace anvil::mod_allow_new {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class ModAllowNew : public ::testing::Test {
 protected:
  void SetUp() override {
    test::generate_game_folder(dir_.path("orig"), "ac2", {"a1.forge"}, {1}, 3, 3);
    original_ = test::snapshot_folder(dir_.path("orig"));
    ASSERT_EQ(test::run_cli({"extract", dir_.path("orig/a1.forge"), "-o", dir_.path("x"), "-q"}).exit_code, 0);
  }

  std::string game(const std::string& name) {
    const std::string path = dir_.path(name);
    fs::create_directory(path);
    fs::copy_file(dir_.path("orig/a1.forge"), path + "/a1.forge");
    return path;
  }

  // The decompressed bytes of the original's data file `name` (as `extract` writes them).
  std::vector<u8> extracted(const std::string& name) { return test::read_file(dir_.path("x/" + name + ".data")); }

  // A package folder that ships `bytes` as Extracted/a1.forge/`member`.
  std::string package(const std::string& tag, const std::string& member, const std::vector<u8>& bytes) {
    const std::string p = dir_.path(tag);
    test::write_file(p + "/Extracted/a1.forge/" + member, bytes);
    return p;
  }

  // The decompressed bytes of data file `name` of the game folder's a1.forge (empty when it has none).
  std::vector<u8> in_game(const std::string& g, const std::string& name) {
    const std::string out = dir_.path("check-" + std::to_string(checks_++));
    if (test::run_cli({"extract", g + "/a1.forge", name, "-o", out, "-q"}).exit_code != 0) return {};
    return test::read_file(out + "/" + name + ".data");
  }

  test::TempDir dir_;
  test::FolderSnapshot original_;
  int checks_ = 0;
};

TEST_F(ModAllowNew, ADataFileTheArchiveLacksIsRefusedWithoutItAndAddedWithIt) {
  const std::string g = game("g");
  // 4242 = 0x1092: AnvilToolkit's name gives the new data file its id.
  const std::string fresh = package("fresh", "4242_-_Fresh.data", extracted("DataFile_001"));
  for (const char* command : {"check", "install"}) {
    test::CliResult r = test::run_cli({"mod", command, g, fresh});
    EXPECT_EQ(r.exit_code, 2) << command;
    EXPECT_THAT(r.err, HasSubstr("member 'Extracted/a1.forge/4242_-_Fresh.data': a1.forge has no data file 'Fresh'"));
    EXPECT_THAT(r.err, HasSubstr("--allow-new adds it"));
  }
  EXPECT_TRUE(test::snapshot_folder(g) == original_);
  test::CliResult check = test::run_cli({"mod", "check", g, fresh, "--allow-new"});
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  test::CliResult install = test::run_cli({"mod", "install", g, fresh, "--allow-new"});
  ASSERT_EQ(install.exit_code, 0) << install.out << install.err;
  EXPECT_THAT(install.out, HasSubstr("a1.forge: 0 data files changed, 1 added"));
  EXPECT_EQ(in_game(g, "Fresh"), extracted("DataFile_001"));
  test::CliResult ls = test::run_cli({"ls", g + "/a1.forge"});
  EXPECT_THAT(ls.out, HasSubstr("Fresh"));
  EXPECT_THAT(ls.out, HasSubstr("0x00001092"));
  // The other data files are as they were.
  EXPECT_EQ(in_game(g, "DataFile_001"), extracted("DataFile_001"));
  test::CliResult verify = test::run_cli({"verify", g + "/a1.forge", "--no-json", "-q"});
  EXPECT_EQ(verify.exit_code, 0) << verify.err;
  ASSERT_EQ(test::run_cli({"mod", "uninstall", g, "fresh"}).exit_code, 0);
  EXPECT_TRUE(test::snapshot_folder(g) == original_);
  EXPECT_TRUE(fs::is_empty(g + "/.anvilrt/mods/data"));
}

TEST_F(ModAllowNew, TwoModsThatAddOneNameWithDifferentBytesConflictThere) {
  const std::string g = game("g");
  const std::string first = package("first", "4242_-_Fresh.data", extracted("DataFile_001"));
  const std::string second = package("second", "4242_-_Fresh.data", extracted("DataFile_002"));
  const std::string same = package("same", "4242_-_Fresh.data", extracted("DataFile_001"));
  test::CliResult check = test::run_cli({"mod", "check", g, first, second, "--allow-new"});
  EXPECT_EQ(check.exit_code, 1) << check.out << check.err;
  EXPECT_THAT(check.out, HasSubstr("/archives/a1.forge/datafiles/Fresh/added"));
  EXPECT_THAT(check.out, HasSubstr("first"));
  EXPECT_THAT(check.out, HasSubstr("second"));
  // The same bytes added by two mods are no conflict.
  EXPECT_EQ(test::run_cli({"mod", "check", g, first, same, "--allow-new"}).exit_code, 0);
  test::CliResult refused = test::run_cli({"mod", "install", g, first, second, "--allow-new"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_TRUE(test::snapshot_folder(g) == original_);
  // One after the other, the later winning: its bytes; the first's again when the later goes.
  ASSERT_EQ(test::run_cli({"mod", "install", g, first, "--allow-new"}).exit_code, 0);
  test::CliResult over = test::run_cli({"mod", "install", g, second, "--allow-new", "--allow-overrides"});
  ASSERT_EQ(over.exit_code, 0) << over.out << over.err;
  EXPECT_THAT(over.out, HasSubstr("override"));
  EXPECT_EQ(in_game(g, "Fresh"), extracted("DataFile_002"));
  ASSERT_EQ(test::run_cli({"mod", "uninstall", g, "second"}).exit_code, 0);
  EXPECT_EQ(in_game(g, "Fresh"), extracted("DataFile_001"));
  // Uninstalling the first while the second stays: the second's data file is added anew.
  ASSERT_EQ(test::run_cli({"mod", "install", g, second, "--allow-new", "--allow-overrides"}).exit_code, 0);
  ASSERT_EQ(test::run_cli({"mod", "uninstall", g, "first"}).exit_code, 0);
  EXPECT_EQ(in_game(g, "Fresh"), extracted("DataFile_002"));
  ASSERT_EQ(test::run_cli({"mod", "uninstall", g, "second"}).exit_code, 0);
  EXPECT_TRUE(test::snapshot_folder(g) == original_);
}

// A whole archive with a data file more (`put --add`): refused, naming it, or added; sync takes the option
// too, and a merge refuses what a document cannot carry.
TEST_F(ModAllowNew, AWholeArchiveWithADataFileMoreAndSync) {
  const std::string g = game("g");
  test::write_file(dir_.path("extra.data"), extracted("DataFile_002"));
  const std::string whole = dir_.path("whole");
  fs::create_directories(whole);
  test::CliResult put = test::run_cli({"put", dir_.path("orig/a1.forge"), "--add", dir_.path("extra.data"), "--name",
                                       "Extra", "--id", "0x777", "-o", whole + "/a1.forge", "-q"});
  ASSERT_EQ(put.exit_code, 0) << put.err;
  test::CliResult r = test::run_cli({"mod", "install", g, whole});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("data file 'Extra' is not in the folder's a1.forge (--allow-new adds it)"));
  r = test::run_cli({"mod", "sync", g, whole, "--allow-new"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(in_game(g, "Extra"), extracted("DataFile_002"));
  EXPECT_THAT(test::run_cli({"ls", g + "/a1.forge"}).out, HasSubstr("0x00000777"));
  EXPECT_THAT(test::run_cli({"mod", "sync", g, whole, "--allow-new"}).out, HasSubstr("nothing to do"));
  r = test::run_cli({"mod", "merge", whole, "--onto", g, "--allow-new", "-o", dir_.path("m.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("adds the data file a1.forge/Extra, which a merged document cannot carry"));
  ASSERT_EQ(test::run_cli({"mod", "sync", g}).exit_code, 0);
  EXPECT_TRUE(test::snapshot_folder(g) == original_);
}

// A kill -9 at every step of a sync that removes one added data file's mod and installs another's leaves the
// archive all-before or all-after.
TEST_F(ModAllowNew, AKilledSyncOfAdditionsIsAllBeforeOrAllAfter) {
  const std::string g = game("g");
  const std::string first = package("first", "4242_-_Fresh.data", extracted("DataFile_001"));
  const std::string second = package("second", "4343_-_Other.data", extracted("DataFile_002"));
  ASSERT_EQ(test::run_cli({"mod", "install", g, first, "--allow-new"}).exit_code, 0);
  const std::string state = dir_.path("state-first");
  fs::copy(g + "/.anvilrt", state, fs::copy_options::recursive);
  test::CrashSweep sweep;
  sweep.dir = g;
  sweep.command = {"mod", "sync", g, second, "--allow-new", "-q"};
  sweep.recover = {"mod", "recover", g};
  sweep.before = test::snapshot_folder(g);
  sweep.prepare = [&] {
    fs::remove_all(g + "/.anvilrt");
    fs::copy(state, g + "/.anvilrt", fs::copy_options::recursive);
  };
  ASSERT_EQ(test::run_cli(sweep.command).exit_code, 0);
  sweep.after = test::snapshot_folder(g);
  EXPECT_TRUE(in_game(g, "Fresh").empty());
  EXPECT_EQ(in_game(g, "Other"), extracted("DataFile_002"));
  test::CrashSweepResult result = test::run_crash_sweep(sweep);
  EXPECT_GT(result.ended_before, 0);
  EXPECT_GT(result.ended_after, 0);
}

}  // namespace
}  // namespace anvil::mod_allow_new
