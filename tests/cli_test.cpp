// The command line as a user meets it: exit codes, one-line errors, no partial output files.
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "tests/test_support.hpp"

namespace anvil {
namespace {

using test::run_cli;

TEST(Cli, VerifyCorpusFolderExitsZero) {
  auto r = run_cli({"verify", test::corpus("")});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("0 differ, 0 missing, 0 unreadable"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("lod_selector_slots.bin: ac2, 807 bytes, 1 object carved, 25 bytes opaque, 0 near misses"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("lod_selector.bin: sws"), std::string::npos) << r.out;
}

TEST(Cli, VerifyEmptyAndRandomFilesCarveNothing) {
  test::TempDir dir;
  test::write_file(dir.path("empty"), std::vector<u8>{});
  std::mt19937 rng(7);
  std::vector<u8> random(1 << 16);
  for (auto& b : random) b = static_cast<u8>(rng());
  test::write_file(dir.path("random"), random);
  for (const char* game : {"auto", "ac2", "sws"}) {
    auto r = run_cli({"verify", "--game", game, dir.path("empty"), dir.path("random")});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_NE(r.out.find("empty: " + std::string(game == std::string("sws") ? "sws" : "ac2") +
                         ", 0 bytes, 0 objects carved, 0 bytes opaque, 0 near misses: identical"),
              std::string::npos)
        << r.out;
    EXPECT_NE(r.out.find(" 0 objects carved, 65536 bytes opaque, 0 near misses: identical"), std::string::npos)
        << r.out;
    for (const char* file : {"empty", "random"})
      EXPECT_NE(r.err.find(dir.path(file) + ": warning: no object carved"), std::string::npos) << r.err;
  }
}

TEST(Cli, BadInputExitsTwoWithOneLine) {
  auto missing = run_cli({"verify", "/nonexistent/file"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "anvilrt: /nonexistent/file: no such file or folder\n");
  auto game = run_cli({"dump", "--game", "ac3", test::corpus("ac2/direct_mesh.bin")});
  EXPECT_EQ(game.exit_code, 2);
  EXPECT_EQ(game.err, "anvilrt: --game must be ac2, sws or auto, not 'ac3'\n");
  auto command = run_cli({"frobnicate"});
  EXPECT_EQ(command.exit_code, 2);
  auto help = run_cli({"verify", "--help"});
  EXPECT_EQ(help.exit_code, 0);
  EXPECT_NE(help.out.find("--no-json"), std::string::npos);
}

TEST(Cli, DumpFullThenBuildReproducesTheFile) {
  test::TempDir dir;
  for (const auto& file :
       {test::corpus("ac2/lod_selector_slots.bin"), test::corpus("sws/visual_lod_selector_instance.bin")}) {
    auto dumped = run_cli({"dump", file, "--full", "-v", "-o", dir.path("d.json")});
    ASSERT_EQ(dumped.exit_code, 0) << dumped.err;
    EXPECT_NE(dumped.err.find("game auto: picked"), std::string::npos);
    auto built = run_cli({"build", dir.path("d.json"), "-o", dir.path("out.bin")});
    ASSERT_EQ(built.exit_code, 0) << built.err;
    EXPECT_EQ(test::read_file(dir.path("out.bin")), test::read_file(file));
  }
}

TEST(Cli, FailedBuildNamesThePointerAndLeavesNoFile) {
  test::TempDir dir;
  auto dumped =
      run_cli({"dump", "--game", "ac2", test::corpus("ac2/direct_mesh.bin"), "--full", "-o", dir.path("d.json")});
  ASSERT_EQ(dumped.exit_code, 0);
  std::string json = test::read_text(dir.path("d.json"));
  auto at = json.find("\"vertex_format\":2");
  ASSERT_NE(at, std::string::npos);
  json.replace(at, 17, "\"vertex_format\":999");  // out of u8 range
  test::write_file(dir.path("bad.json"), std::vector<u8>(json.begin(), json.end()));
  auto built = run_cli({"build", dir.path("bad.json"), "-o", dir.path("out.bin")});
  EXPECT_EQ(built.exit_code, 2);
  EXPECT_NE(built.err.find("/instance/compiled/vertex_format: must be an integer 0..255"), std::string::npos)
      << built.err;
  EXPECT_EQ(std::count(built.err.begin(), built.err.end(), '\n'), 1);
  EXPECT_FALSE(std::filesystem::exists(dir.path("out.bin")));
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(dir.path("")), {}), 2) << "no temporary left";
  auto no_spans = run_cli({"dump", test::corpus("ac2/direct_mesh.bin"), "-o", dir.path("partial.json")});
  auto refused = run_cli({"build", dir.path("partial.json"), "-o", dir.path("out.bin")});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_NE(refused.err.find("needs a dump made with --full"), std::string::npos);
  // A document that ends early is refused with its reason, not built as an empty file.
  const std::string short_text = R"({"format":"x"})";
  test::write_file(dir.path("short.json"), std::vector<u8>(short_text.begin(), short_text.end()));
  auto short_doc = run_cli({"build", dir.path("short.json"), "-o", dir.path("out.bin")});
  EXPECT_EQ(short_doc.exit_code, 2);
  EXPECT_EQ(short_doc.err, "anvilrt: " + dir.path("short.json") + ": /format: must be \"anvilrt/1\" (found \"x\")\n");
  EXPECT_FALSE(std::filesystem::exists(dir.path("out.bin")));
}

}  // namespace
}  // namespace anvil
