// A mod package where a command takes a patch for a game folder (pipeline/mods/package_patch.hpp): `patch DIR
// PACKAGE` (a dry run, then for real) and `map DIR --patch PACKAGE` apply what it changes against the
// folder's originals; a package for a single archive, and one that changes bytes outside every object, are
// refused in one line.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "tests/game_folder_support.hpp"
#include "tests/test_support.hpp"

namespace anvil::package_patch {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

TEST(PackagePatch, PatchAndMapTakeAPackageForAGameFolder) {
  test::TempDir dir;
  const std::string g = dir.path("g");
  test::generate_game_folder(g, "ac2", {"a1.forge"}, {1}, 2, 3);
  const test::FolderSnapshot original = test::snapshot_folder(g);
  const std::string key = test::archive_keys(g + "/a1.forge").at(0).second.at(0);
  // The data file as a modder ships it: extracted, one field changed by a tool.
  ASSERT_EQ(test::run_cli({"extract", g + "/a1.forge", "DataFile_000", "-o", dir.path("x"), "-q"}).exit_code, 0);
  {
    std::ofstream(dir.path("edit.json")) << R"([{"op": "replace", "path": "/objects/)" << key
                                         << R"(/managed", "value": 7}])";
  }
  const std::string package = dir.path("pkg");
  fs::create_directories(package + "/Extracted/a1.forge");
  ASSERT_EQ(test::run_cli({"patch", dir.path("x/DataFile_000.data"), dir.path("edit.json"), "-o",
                           package + "/Extracted/a1.forge/DataFile_000.data", "-q"})
                .exit_code,
            0);
  test::CliResult dry = test::run_cli({"patch", g, package, "--dry-run"});
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_THAT(dry.out, HasSubstr("/archives/a1.forge/datafiles/DataFile_000/objects/" + key + "/managed"));
  EXPECT_THAT(dry.out, HasSubstr("-> 7"));
  EXPECT_TRUE(test::snapshot_folder(g) == original);
  test::CliResult map = test::run_cli({"map", g, "--patch", package, "-o", dir.path("m.svg"), "-q"});
  EXPECT_EQ(map.exit_code, 0) << map.err;
  // A single archive: the package names the folder's archives, and is compared with the folder's originals.
  test::CliResult single = test::run_cli({"patch", g + "/a1.forge", package, "--dry-run"});
  EXPECT_EQ(single.exit_code, 2);
  EXPECT_THAT(single.err, HasSubstr("a mod package is turned into changes against a game folder"));
  ASSERT_EQ(test::run_cli({"patch", g, package, "--in-place", "-q"}).exit_code, 0);
  EXPECT_EQ(test::object_field(g + "/a1.forge", key, "managed"), "7");
  // Bytes outside every object: a patch cannot carry them.
  std::vector<u8> bytes = test::read_file(package + "/Extracted/a1.forge/DataFile_000.data");
  bytes.back() ^= 0x01;
  const std::string outside = dir.path("outside");
  test::write_file(outside + "/Extracted/a1.forge/DataFile_000.data", bytes);
  test::CliResult refused = test::run_cli({"patch", g, outside, "--dry-run"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_THAT(refused.err,
              HasSubstr("outside its objects, which a patch cannot carry; install it with anvilrt mod install"));
}

}  // namespace
}  // namespace anvil::package_patch
