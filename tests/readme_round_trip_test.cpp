// The README's worked example of the archive round trip (the block between "<!-- round-trip -->" and
// "<!-- /round-trip -->") is run as written, by bash with -euo pipefail, from a folder that holds the
// corpus, and its outputs are checked: what was put back is what extract gives again, and the patch diff
// printed reproduces the edit of the objects.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "tests/test_support.hpp"

namespace anvil {
namespace {

using ::testing::HasSubstr;

std::string readme_round_trip() {
  const std::string readme = test::read_text(test::corpus("../README.md"));
  const std::string open = "<!-- round-trip -->\n```sh\n", close = "```\n<!-- /round-trip -->";
  const std::size_t begin = readme.find(open);
  const std::size_t end = readme.find(close);
  if (begin == std::string::npos || end == std::string::npos || end < begin) return "";
  return readme.substr(begin + open.size(), end - begin - open.size());
}

TEST(ReadmeRoundTrip, RunsAsWritten) {
  SKIP_ON_WINDOWS(
      "runs the README's sh block with bash, which Windows lacks: Wine.ReadmeRoundTrip runs the same block on "
      "anvilrt.exe from a C:\\ folder under Wine");
  const std::string script = readme_round_trip();
  ASSERT_THAT(script, HasSubstr("anvilrt put")) << "README.md has no round-trip block";
  test::TempDir dir;
  std::filesystem::create_directory_symlink(std::filesystem::absolute(test::corpus("")), dir.path("corpus"));
  { std::ofstream(dir.path("round-trip.sh")) << script; }
  const std::string bin = std::filesystem::path(ANVILRT_BINARY).parent_path().string();
  const std::string command =
      "cd '" + dir.path("") + "' && PATH='" + bin + "':\"$PATH\" bash -euo pipefail round-trip.sh >log 2>&1";
  const int status = std::system(command.c_str());
  ASSERT_EQ(status, 0) << test::read_text(dir.path("log"));

  // What was put back is what extract gives again, byte for byte, every data file.
  ASSERT_EQ(test::run_cli({"extract", dir.path("edited.forge"), "-o", dir.path("again"), "-q"}).exit_code, 0);
  for (const auto& entry : std::filesystem::directory_iterator(dir.path("x"))) {
    if (entry.path().extension() != ".data") continue;
    const std::string name = entry.path().filename().string();
    EXPECT_EQ(test::read_text(dir.path("again/" + name)), test::read_text(entry.path().string())) << name;
  }
  // The diff holds the move, and the archive it patched holds the moved data file.
  EXPECT_THAT(test::read_text(dir.path("changes.json")),
              HasSubstr("\"/datafiles/DataFile_000/objects/0xa7f13e8d804b9c06/instance/instances/0/12\""));
  ASSERT_EQ(
      test::run_cli({"extract", dir.path("moved.forge"), "DataFile_000", "-o", dir.path("moved"), "-q"}).exit_code, 0);
  EXPECT_EQ(test::read_text(dir.path("moved/DataFile_000.data")), test::read_text(dir.path("x/DataFile_000.data")));
  // The byte edited outside the objects is named on stderr, not carried by the patch.
  EXPECT_THAT(test::read_text(dir.path("log")), HasSubstr("DataFile_002: changed outside objects"));
  // pack and compact wrote archives that verify.
  for (const char* out : {"packed.forge", "compacted.forge"})
    EXPECT_EQ(test::run_cli({"verify", "--no-json", "-q", dir.path(out)}).exit_code, 0) << out;
}

}  // namespace
}  // namespace anvil
