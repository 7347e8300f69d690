// Archive versions 25, 26 and 27 (FORGE.md 7), through the binary and the library, on archives `gen
// --forge --forge-version` writes for both games: each reads and writes back byte for byte; ls shows the
// version and ids of its width (16 hex digits in version 27); extract gives the generator's data files;
// put of an unchanged extraction is the identical archive; a patch, an added data file (a 64-bit id only in
// version 27), pack and compact all read back.
#include <absl/strings/str_format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "gen/forge.hpp"
#include "model/forge/archive.hpp"
#include "pipeline/forge_rewrite.hpp"
#include "reader/forge/archive_reader.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

using ::testing::HasSubstr;

const u32 kVersions[] = {25, 26, 27};

struct Generated {
  std::string path;
  gen::ForgeRecord record;
};

Generated generate(const test::TempDir& dir, const std::string& game, u32 version) {
  Generated g;
  g.path = dir.path(absl::StrFormat("%s-v%d.forge", game, version));
  auto r = test::run_cli({"gen", "--forge", "--game", game, "--datafiles", "5", "--visuals", "3", "--seed", "4",
                          "--block-size", "300", "--forge-version", std::to_string(version), "-o", g.path, "-q"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  gen::ForgeOptions options;
  options.game = game == "ac2" ? Game::ac2 : Game::sws;
  options.datafiles = 5;
  options.visuals = 3;
  options.seed = 4;
  options.block_size = 300;
  options.version = version;
  EXPECT_EQ(gen::generate_forge(options, &g.record), test::read_file(g.path));
  return g;
}

TEST(ForgeVersions, EachVersionReadsAndWritesBackByteForByte) {
  test::TempDir dir;
  for (std::string game : {"ac2", "sws"})
    for (u32 version : kVersions) {
      SCOPED_TRACE(absl::StrFormat("%s version %d", game, version));
      Generated g = generate(dir, game, version);
      std::vector<u8> bytes = test::read_file(g.path);
      auto archive = forge::read_archive(bytes);
      ASSERT_TRUE(archive.ok()) << archive.status();
      EXPECT_EQ(archive->header.version, version);
      EXPECT_EQ(archive->files.size(), 5u);
      for (std::size_t i = 0; i < 5; ++i) {
        EXPECT_EQ(archive->files[i].index.file_id.value, g.record.files[i].file_id);
        // Version 27 has no 440-byte header: its index entry points at the stored bytes.
        EXPECT_EQ(archive->files[i].stored_offset(), g.record.files[i].header_offset + (version == 27 ? 0 : 440));
      }
      auto back = forge::round_trip(bytes);
      ASSERT_TRUE(back.ok()) << back.status();
      EXPECT_EQ(*back, bytes);
      auto verify = test::run_cli({"verify", g.path, "-q"});
      EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;
      EXPECT_THAT(verify.out,
                  HasSubstr(absl::StrFormat("archive version %d, data-file layout 1, checksum rule", version)));
    }
}

TEST(ForgeVersions, LsShowsTheVersionAndIdsOfItsWidth) {
  test::TempDir dir;
  for (u32 version : kVersions) {
    SCOPED_TRACE(version);
    Generated g = generate(dir, "ac2", version);
    auto ls = test::run_cli({"ls", g.path});
    ASSERT_EQ(ls.exit_code, 0) << ls.err;
    const std::string id = forge::format_id(g.record.files[1].file_id, {version});
    EXPECT_EQ(id.size(), version == 27 ? 18u : 10u);
    EXPECT_THAT(ls.out, HasSubstr("   1  " + id + "  DataFile_001"));
    EXPECT_THAT(ls.out, HasSubstr(absl::StrFormat("5 data files, archive version %d,", version)));
    auto json = test::run_cli({"ls", g.path, "--json"});
    EXPECT_THAT(json.out, HasSubstr(absl::StrFormat("\"version\": %d", version)));
    EXPECT_THAT(json.out, HasSubstr("\"file_id\": \"" + id + "\""));
    // The id selects the data file, at its width.
    auto x = test::run_cli({"extract", g.path, id, "-o", dir.path(absl::StrFormat("by-id-%d", version)), "-q"});
    EXPECT_EQ(x.exit_code, 0) << x.err;
    EXPECT_EQ(test::read_file(dir.path(absl::StrFormat("by-id-%d/DataFile_001.data", version))),
              g.record.files[1].decoded);
  }
}

TEST(ForgeVersions, ExtractPutPackAndCompactOnEveryVersion) {
  test::TempDir dir;
  for (std::string game : {"ac2", "sws"})
    for (u32 version : kVersions) {
      SCOPED_TRACE(absl::StrFormat("%s version %d", game, version));
      Generated g = generate(dir, game, version);
      const std::string x = dir.path(absl::StrFormat("x-%s-%d", game, version));
      auto r = test::run_cli({"extract", g.path, "-o", x, "-q"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      for (std::size_t i = 0; i < 5; ++i)
        EXPECT_EQ(test::read_file(absl::StrFormat("%s/DataFile_%03d.data", x, i)), g.record.files[i].decoded);

      // put of the unchanged extraction: the identical archive.
      std::vector<std::string> args = {"put", g.path};
      for (std::size_t i = 0; i < 5; ++i) args.push_back(absl::StrFormat("%s/DataFile_%03d.data", x, i));
      const std::string put = g.path + ".put";
      args.insert(args.end(), {"-o", put, "-q"});
      r = test::run_cli(args);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(test::read_file(put), test::read_file(g.path));

      // A data file grown and put back reads back as put.
      std::vector<u8> grown = g.record.files[0].decoded;
      grown.insert(grown.end(), 100, 0x42);
      const std::string edited = dir.path(absl::StrFormat("DataFile_000-%s-%d.data", game, version));
      test::write_file(edited, grown);
      r = test::run_cli({"put", g.path, edited, "--as", "DataFile_000", "--raw", "-o", put, "-q"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const std::string back = dir.path(absl::StrFormat("back-%s-%d", game, version));
      r = test::run_cli({"extract", put, "DataFile_000", "-o", back, "-q"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(test::read_file(back + "/DataFile_000.data"), grown);

      // pack of the extraction reads back to the same data files, of the same version.
      const std::string packed = g.path + ".packed";
      r = test::run_cli({"pack", x, "-o", packed, "-q"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      auto archive = forge::read_archive(test::read_file(packed));
      ASSERT_TRUE(archive.ok()) << archive.status();
      EXPECT_EQ(archive->header.version, version);
      const std::string px = dir.path(absl::StrFormat("px-%s-%d", game, version));
      r = test::run_cli({"extract", packed, "-o", px, "-q"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      for (std::size_t i = 0; i < 5; ++i)
        EXPECT_EQ(test::read_file(absl::StrFormat("%s/DataFile_%03d.data", px, i)), g.record.files[i].decoded);

      // compact of the put archive (its grown data file moved) leaves every data file's stored bytes.
      const std::string compacted = g.path + ".compact";
      r = test::run_cli({"compact", put, "-o", compacted, "-q"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const std::string cx = dir.path(absl::StrFormat("cx-%s-%d", game, version));
      r = test::run_cli({"extract", compacted, "-o", cx, "-q"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(test::read_file(cx + "/DataFile_000.data"), grown);
      for (std::size_t i = 1; i < 5; ++i)
        EXPECT_EQ(test::read_file(absl::StrFormat("%s/DataFile_%03d.data", cx, i)), g.record.files[i].decoded);
      EXPECT_LT(std::filesystem::file_size(compacted), std::filesystem::file_size(put));
    }
}

TEST(ForgeVersions, AnAddedDataFileHasAnIdOfTheVersionsWidth) {
  test::TempDir dir;
  for (u32 version : kVersions) {
    SCOPED_TRACE(version);
    Generated g = generate(dir, "ac2", version);
    const std::string file = dir.path(absl::StrFormat("added-%d.data", version));
    test::write_file(file, g.record.files[0].decoded);
    const std::string out = g.path + ".added";
    auto r = test::run_cli({"put", g.path, "--add", file, "--name", "Added", "--id", "0x123456789a", "-o", out, "-q"});
    if (version != 27) {
      EXPECT_EQ(r.exit_code, 2);
      EXPECT_THAT(r.err, HasSubstr("does not fit the 32 bits of archive version"));
      EXPECT_FALSE(std::filesystem::exists(out));
      continue;
    }
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto ls = test::run_cli({"ls", out});
    EXPECT_THAT(ls.out, HasSubstr("   5  0x000000123456789a  Added"));
  }
}

TEST(ForgeVersions, APatchOfAnObjectWorksOnEveryVersion) {
  test::TempDir dir;
  for (u32 version : kVersions) {
    SCOPED_TRACE(version);
    Generated g = generate(dir, "ac2", version);
    // The first object key of DataFile_000, from its dump.
    auto dump = test::run_cli({"dump", g.path, "--game", "ac2"});
    ASSERT_EQ(dump.exit_code, 0) << dump.err;
    const std::size_t at = dump.out.find("\"0x");
    ASSERT_NE(at, std::string::npos);
    const std::string key = dump.out.substr(at + 1, 18);
    const std::string patch = dir.path(absl::StrFormat("p-%d.json", version));
    const std::string text =
        "[{\"op\":\"replace\",\"path\":\"/datafiles/DataFile_000/objects/" + key + "/managed\",\"value\":7}]";
    test::write_file(patch, std::span(reinterpret_cast<const u8*>(text.data()), text.size()));
    const std::string out = g.path + ".patched";
    auto r = test::run_cli({"patch", g.path, patch, "-o", out, "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    auto verify = test::run_cli({"verify", out, "-q"});
    EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;
    auto diff = test::run_cli({"diff", g.path, out});
    EXPECT_EQ(diff.exit_code, 1) << diff.err;
    EXPECT_THAT(diff.out, HasSubstr("/datafiles/DataFile_000/objects/" + key + "/managed"));
  }
}

}  // namespace
}  // namespace anvil
