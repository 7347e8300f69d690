// `anvilrt gen --forge`, `ls` and `extract`, run as the binary: ls agrees with the generator's record,
// extract writes each data file exactly as the generator decompressed it, and bad archives fail with a
// one-line error naming the archive and the offset.
#include <absl/strings/str_format.h>
#include <absl/strings/str_split.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cstring>
#include <filesystem>

#include "gen/forge.hpp"
#include "pipeline/forge_extract.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "tests/test_support.hpp"

namespace anvil::forge {
namespace {

using ::testing::HasSubstr;

const gen::ForgeOptions kOptions{Game::ac2, 5, 4, 21, 400};

std::string generate(const test::TempDir& dir, gen::ForgeRecord& record) {
  std::string path = dir.path("gen.forge");
  auto r = test::run_cli({"gen", "--forge", "--game", "ac2", "--datafiles", "5", "--visuals", "4", "--seed", "21",
                          "--block-size", "400", "-o", path});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<u8> bytes = gen::generate_forge(kOptions, &record);
  EXPECT_EQ(test::read_file(path), bytes) << "the command writes what the library generates";
  return path;
}

TEST(ForgeCli, LsListsEveryDataFile) {
  test::TempDir dir;
  gen::ForgeRecord record;
  std::string path = generate(dir, record);
  auto r = test::run_cli({"ls", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<std::string> lines = absl::StrSplit(r.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), record.files.size() + 1);
  for (std::size_t i = 0; i < record.files.size(); ++i) {
    const auto& f = record.files[i];
    EXPECT_THAT(lines[i], HasSubstr(absl::StrFormat("0x%08x", f.file_id)));
    EXPECT_THAT(lines[i], HasSubstr(f.name));
    EXPECT_THAT(lines[i], HasSubstr(absl::StrFormat("stored %d ", f.stored_size)));
    EXPECT_THAT(lines[i], HasSubstr(absl::StrFormat("decompressed %d ", f.decoded.size())));
    EXPECT_THAT(lines[i], HasSubstr(std::string("  ") + std::string(compression_name(f.compression)) + "  "));
    EXPECT_THAT(lines[i],
                HasSubstr(f.compression == Compression::plain ? "checksum n/a" : "checksum adler32-0/stored"));
  }
  EXPECT_THAT(lines.back(),
              HasSubstr("5 data files, archive version 25, checksum rule of the archive: adler32-0/stored"));
}

TEST(ForgeCli, LsJsonWithObjects) {
  test::TempDir dir;
  gen::ForgeRecord record;
  std::string path = generate(dir, record);
  auto r = test::run_cli({"ls", path, "--json", "--objects"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  rapidjson::Document doc;
  doc.Parse(r.out.c_str());
  ASSERT_FALSE(doc.HasParseError());
  const auto& files = doc["datafiles"];
  ASSERT_EQ(files.Size(), record.files.size());
  for (rapidjson::SizeType i = 0; i < files.Size(); ++i) {
    const auto& f = record.files[i];
    EXPECT_EQ(files[i]["file_id"].GetString(), absl::StrFormat("0x%08x", f.file_id));
    EXPECT_EQ(files[i]["name"].GetString(), f.name);
    EXPECT_EQ(files[i]["size"].GetUint64(), f.stored_size);
    EXPECT_EQ(files[i]["decompressed_size"].GetUint64(), f.decoded.size());
    EXPECT_EQ(files[i]["entries"].GetUint64(), f.entries);
    EXPECT_EQ(files[i]["objects"]["Visual"].GetUint64(), f.visuals);
  }
  EXPECT_STREQ(doc["checksum_rule"].GetString(), "adler32-0/stored");
}

TEST(ForgeCli, ExtractWritesWhatTheGeneratorRecorded) {
  test::TempDir dir;
  gen::ForgeRecord record;
  std::string path = generate(dir, record);
  std::string out = dir.path("all");
  auto r = test::run_cli({"extract", path, "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const auto& f : record.files) EXPECT_EQ(test::read_file(out + "/" + f.name + ".data"), f.decoded) << f.name;

  std::string some = dir.path("some");
  r = test::run_cli(
      {"extract", path, record.files[1].name, absl::StrFormat("0x%08x", record.files[3].file_id), "-o", some});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::size_t n = 0;
  for ([[maybe_unused]] const auto& e : std::filesystem::directory_iterator(some)) ++n;
  EXPECT_EQ(n, 3u);  // the two data files and forge.json, which says it lists only them
  EXPECT_THAT(test::read_text(some + "/forge.json"), HasSubstr("\"complete\": false"));
  EXPECT_EQ(test::read_file(some + "/" + record.files[3].name + ".data"), record.files[3].decoded);

  r = test::run_cli({"extract", path, "NoSuchName", "-o", dir.path("none")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("no data file is named or has the id 'NoSuchName'"));
}

TEST(ForgeCli, BadArchivesFailWithOneLine) {
  test::TempDir dir;
  gen::ForgeRecord record;
  std::string path = generate(dir, record);
  std::vector<u8> bytes = test::read_file(path);
  u32 version = 28;
  std::memcpy(&bytes[9], &version, 4);
  std::string bad = dir.path("v28.forge");
  test::write_file(bad, bytes);
  for (const char* command : {"ls", "extract"}) {
    std::vector<std::string> args{command, bad};
    if (std::string(command) == "extract") args.insert(args.end(), {"-o", dir.path("x")});
    auto r = test::run_cli(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "anvilrt: " + bad + ": offset 0x9: version must be 25, 26 or 27 (found 28)\n");
  }
  EXPECT_FALSE(std::filesystem::exists(dir.path("x")));
}

// extract's files are named after data_file_names (tests/data_file_names_test.cpp): a clash, case
// ignored, takes the id.
TEST(ForgeExtractNames, AfterTheUniqueNames) {
  Archive a;
  a.files.resize(4);
  const char* names[] = {"Level", "level", "Other", "Level"};
  const u32 ids[] = {1, 2, 3, 1};
  for (std::size_t i = 0; i < 4; ++i) {
    std::memcpy(a.files[i].name.name.bytes.data(), names[i], std::strlen(names[i]));
    a.files[i].index.file_id.value = ids[i];
  }
  std::vector<std::size_t> all{0, 1, 2, 3};
  EXPECT_EQ(extract_names(a, all),
            (std::vector<std::string>{"Level.data", "level@0x00000002.data", "Other.data", "Level@0x00000001.data"}));
}

}  // namespace
}  // namespace anvil::forge
