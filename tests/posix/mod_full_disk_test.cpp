// `mod uninstall` on a disk that fills up mid-way, on a real file system that is full: a tmpfs of a fixed
// size, mounted in a mount namespace of the test's own (unshare -rm: no change to the machine's mounts).
// The folder must stay as it was, and the one line said must be the system's reason ("No space left on
// device"), not what a short copy made of it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <string>

#include "tests/test_support.hpp"

namespace anvil {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string first_key(const std::string& archive) {
  test::CliResult r = test::run_cli({"dump", "-q", archive});
  rapidjson::Document doc = test::parse_json(r.out);
  return doc["datafiles"]["DataFile_000"]["objects"].MemberBegin()->name.GetString();
}

TEST(ModFullDisk, UninstallSaysNoSpaceAndChangesNothing) {
  if (!fs::exists("/usr/bin/unshare")) GTEST_SKIP() << "no /usr/bin/unshare to mount a small file system privately";
  test::TempDir dir;
  const std::string g = dir.path("g");
  fs::create_directory(g);
  ASSERT_EQ(test::run_cli({"gen", "--forge", "--game", "ac2", "--datafiles", "3", "--visuals", "3000", "--seed", "4",
                           "-q", "-o", g + "/a.forge"})
                .exit_code,
            0);
  const std::string op_path =
      "/archives/a.forge/datafiles/DataFile_000/objects/" + first_key(g + "/a.forge") + "/managed";
  std::ofstream(dir.path("m.json")) << "[{\"op\": \"replace\", \"path\": \"" << op_path << "\", \"value\": 3}]";
  test::CliResult installed = test::run_cli({"mod", "install", g, dir.path("m.json")});
  ASSERT_EQ(installed.exit_code, 0) << installed.err;
  const std::uintmax_t archive = fs::file_size(g + "/a.forge");
  ASSERT_GT(archive, 512u * 1024) << "the archive must not fit in the room left";
  // Room for the folder as it is, and 256 KiB more: not for the original the uninstall restores beside it.
  std::uintmax_t used = 0;
  for (const auto& e : fs::recursive_directory_iterator(g))
    if (e.is_regular_file()) used += e.file_size() + 4096;
  const std::string mnt = dir.path("mnt");
  fs::create_directory(mnt);
  const std::string script = "mount -t tmpfs -o size=" + std::to_string(used + 256 * 1024) + " tmpfs '" + mnt +
                             "' || exit 77\n" + "cp -a '" + g + "' '" + mnt + "/g' || exit 78\n'" +
                             std::string(ANVILRT_BINARY) + "' mod uninstall '" + mnt + "/g' m 2>'" + dir.path("err") +
                             "'\necho $? >'" + dir.path("code") + "'\ncmp -s '" + g + "/a.forge' '" + mnt +
                             "/g/a.forge' && echo same >'" + dir.path("same") + "'\nexit 0\n";
  test::CliResult r = test::run_binary("/usr/bin/unshare", {"-rm", "sh", "-c", script});
  if (r.exit_code == 77 || r.exit_code == 78 || r.err.rfind("unshare: ", 0) == 0)
    GTEST_SKIP() << "cannot mount a tmpfs in a private mount namespace here: " << r.err;
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string err = test::read_text(dir.path("err"));
  EXPECT_EQ(test::read_text(dir.path("code")), "2\n") << err;
  EXPECT_THAT(err, HasSubstr("No space left on device"));
  EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
  EXPECT_TRUE(fs::exists(dir.path("same"))) << "the archive changed: " << err;
}

}  // namespace
}  // namespace anvil
