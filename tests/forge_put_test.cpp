// `anvilrt put` through the binary, on generated archives of both games in every stored form and at
// several block sizes: an unchanged extraction puts back byte-identical; a patch applied to extracted
// data files and put back equals the same patch applied to the archive; a data file edited outside its
// objects, grown or shrunk, put back, extracts as edited while every other data file's stored bytes stay;
// --add and --remove; every bad input exits 2 and writes nothing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "model/forge/data_file.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "tests/test_support.hpp"
#include "writer/byte_writer.hpp"

namespace anvil {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

const u64 kBlockSizes[] = {16, 300, 4096, 32768};

std::string gen_forge(const test::TempDir& dir, const std::string& game, u64 visuals, u64 seed, u64 block_size,
                      u64 datafiles = 5) {
  std::string path = dir.path(absl::StrFormat("%s-%d-%d.forge", game, seed, block_size));
  auto r = test::run_cli({"gen", "--forge", "--game", game, "--datafiles", std::to_string(datafiles), "--visuals",
                          std::to_string(visuals), "--seed", std::to_string(seed), "--block-size",
                          std::to_string(block_size), "-o", path, "-q"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return path;
}

std::string extract_all(const std::string& forge, const std::string& dir) {
  auto r = test::run_cli({"extract", forge, "-o", dir, "-q"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return dir;
}

std::string data_path(const std::string& dir, std::size_t i) { return dir + absl::StrFormat("/DataFile_%03d.data", i); }

// Every data file's stored bytes, by name.
std::map<std::string, std::vector<u8>> stored_of(const std::string& forge) {
  std::vector<u8> bytes = test::read_file(forge);
  auto archive = forge::read_archive(bytes);
  EXPECT_TRUE(archive.ok()) << archive.status();
  std::map<std::string, std::vector<u8>> out;
  if (!archive.ok()) return out;
  for (const forge::DataFileAt& f : archive->files)
    out[std::string(forge::data_file_name(f))] = {bytes.begin() + static_cast<std::ptrdiff_t>(f.stored_offset()),
                                                  bytes.begin() + static_cast<std::ptrdiff_t>(f.end())};
  return out;
}

std::vector<u8> encode(forge::DataFile& file) {
  std::vector<u8> out;
  ByteWriter writer(out);
  file.serialize(writer, 0);
  return out;
}

forge::DataFile parse(const std::vector<u8>& bytes) {
  auto f = forge::parse_data_file(bytes);
  EXPECT_TRUE(f.ok()) << f.status();
  return f.ok() ? *f : forge::DataFile{};
}

TEST(ForgePut, AnUnchangedExtractionPutsBackByteIdentical) {
  test::TempDir dir;
  for (std::string game : {"ac2", "sws"})
    for (u64 block_size : kBlockSizes) {
      SCOPED_TRACE(game + " block size " + std::to_string(block_size));
      std::string forge = gen_forge(dir, game, 4, 3, block_size);
      std::string x = extract_all(forge, dir.path(game + std::to_string(block_size)));
      // Every file of the folder, as `put A.forge DIR/*` names them: forge.json is skipped, and said so.
      std::vector<std::string> args = {"put", forge, x + "/forge.json"};
      for (std::size_t i = 0; i < 5; ++i) args.push_back(data_path(x, i));
      std::string out = forge + ".put";
      args.insert(args.end(), {"-o", out});
      auto r = test::run_cli(args);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(test::read_file(out), test::read_file(forge));
      EXPECT_THAT(r.out, HasSubstr("DataFile_000: unchanged"));
      EXPECT_THAT(r.out, HasSubstr("forge.json: skipped (the list extract writes"));
      // To standard output, the report on standard error.
      r = test::run_cli({"put", forge, data_path(x, 0), "-o", "-"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const std::vector<u8> original = test::read_file(forge);
      EXPECT_TRUE(r.out == std::string(original.begin(), original.end()));
      EXPECT_THAT(r.err, HasSubstr("DataFile_000: unchanged"));
      // --in-place of an unchanged file leaves the archive as it was.
      std::vector<u8> before = test::read_file(forge);
      r = test::run_cli({"put", forge, data_path(x, 3), "--in-place"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(test::read_file(forge), before);
    }
}

TEST(ForgePut, APatchedExtractionPutBackEqualsThePatchedArchive) {
  test::TempDir dir;
  struct Game {
    std::string name, patch;
    u64 visuals;
  };
  const Game games[] = {{"ac2", R"([{"op": "transform", "objects": "*", "translate": [1, 2, 3]}])", 4},
                        {"sws", R"([{"op": "scale_switch_distance", "objects": "*", "factor": 1.5}])", 40}};
  for (const Game& g : games)
    for (u64 block_size : {u64{16}, u64{300}, u64{32768}}) {
      SCOPED_TRACE(g.name + " block size " + std::to_string(block_size));
      std::string forge = gen_forge(dir, g.name, g.visuals, 5, block_size);
      std::string patch = dir.path(g.name + ".json");
      test::write_file(patch, std::vector<u8>(g.patch.begin(), g.patch.end()));
      std::string patched = forge + ".patched";
      auto r = test::run_cli({"patch", forge, patch, "-o", patched, "-q"});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      std::string x = extract_all(forge, dir.path(g.name + "-x" + std::to_string(block_size)));
      std::vector<std::string> args = {"put", forge};
      std::size_t edited = 0;
      for (std::size_t i = 0; i < 5; ++i) {
        // 1: the operation matched nothing in this data file (it stays as extracted).
        r = test::run_cli({"patch", data_path(x, i), patch, "--in-place", "-q"});
        ASSERT_TRUE(r.exit_code == 0 || r.exit_code == 1) << r.err;
        edited += r.exit_code == 0;
        args.push_back(data_path(x, i));
      }
      EXPECT_GT(edited, 0u);
      std::string put = forge + ".put";
      args.insert(args.end(), {"-o", put});
      r = test::run_cli(args);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_TRUE(test::read_file(put) == test::read_file(patched)) << "put differs from patch";
      EXPECT_NE(test::read_file(put), test::read_file(forge));
    }
}

// A data file edited outside its objects: each edit, put back, extracts as edited, and every other data
// file's stored bytes are unchanged.
TEST(ForgePut, EditedGrownAndShrunkDataFilesPutBack) {
  test::TempDir dir;
  for (std::string game : {"ac2", "sws"})
    for (u64 block_size : {u64{64}, u64{4096}}) {
      std::string forge = gen_forge(dir, game, 3, 7, block_size);
      std::string x = extract_all(forge, dir.path(game + "-x" + std::to_string(block_size)));
      const auto stored_before = stored_of(forge);
      for (std::size_t i = 0; i < 5; ++i) {
        const std::vector<u8> original = test::read_file(data_path(x, i));
        std::vector<std::pair<std::string, std::vector<u8>>> edits;
        {  // the entry table's `extra`, same size
          std::vector<u8> d = original;
          d[2 + 8] ^= 0x40;
          edits.push_back({"edited", d});
        }
        {  // the kept bytes after the table, grown by 700
          forge::DataFile f = parse(original);
          for (u8 k = 0; k < 175; ++k) f.unknown.bytes.insert(f.unknown.bytes.end(), {k, 0xA5, 0x5A, k});
          edits.push_back({"grown", encode(f)});
        }
        {  // the last body, shrunk by 100 (its entry's file_size and data_size follow)
          forge::DataFile f = parse(original);
          forge::Entry& e = f.entries.back();
          ASSERT_GT(e.body.bytes.size(), 100u);
          e.body.bytes.resize(e.body.bytes.size() - 100);
          e.data_size -= 100;
          edits.push_back({"shrunk", encode(f)});
        }
        for (const auto& [what, bytes] : edits) {
          SCOPED_TRACE(absl::StrFormat("%s block size %d data file %d %s", game, block_size, i, what));
          ASSERT_NE(bytes, original);
          std::string edited_dir = dir.path("edited");
          fs::create_directories(edited_dir);
          test::write_file(data_path(edited_dir, i), bytes);
          std::string out = forge + ".out";
          auto r = test::run_cli({"put", forge, data_path(edited_dir, i), "-o", out});
          ASSERT_EQ(r.exit_code, 0) << r.err;
          EXPECT_THAT(r.out, HasSubstr(absl::StrFormat("DataFile_%03d: replaced", i)));
          std::string back = dir.path("back");
          fs::remove_all(back);
          extract_all(out, back);
          EXPECT_EQ(test::read_file(data_path(back, i)), bytes);
          const auto stored_after = stored_of(out);
          ASSERT_EQ(stored_after.size(), stored_before.size());
          for (const auto& [name, s] : stored_before)
            if (name != absl::StrFormat("DataFile_%03d", i)) {
              EXPECT_EQ(stored_after.at(name), s) << name;
            }
          // Put back again, the original bytes: an equal data file (its stored form may differ).
          r = test::run_cli({"put", out, data_path(x, i), "--in-place", "-q"});
          ASSERT_EQ(r.exit_code, 0) << r.err;
          fs::remove_all(back);
          extract_all(out, back);
          EXPECT_EQ(test::read_file(data_path(back, i)), original);
        }
      }
    }
}

TEST(ForgePut, AOneByteEditReCompressesOneBlock) {
  test::TempDir dir;
  std::string forge = gen_forge(dir, "ac2", 6, 9, 256);
  std::string x = extract_all(forge, dir.path("x"));
  std::vector<u8> d = test::read_file(data_path(x, 4));  // LZO1X chunks
  d[d.size() - 10] ^= 1;
  test::write_file(data_path(x, 4), d);
  auto r = test::run_cli({"put", forge, data_path(x, 4), "--dry-run"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("DataFile_004: replaced (decompressed"));
  EXPECT_THAT(r.out, HasSubstr(", 1 of "));
  EXPECT_THAT(r.out, HasSubstr("in place"));
  EXPECT_THAT(r.out, HasSubstr("dry run: nothing written"));
}

TEST(ForgePut, AddThenExtractGivesTheFile) {
  test::TempDir dir;
  for (std::string game : {"ac2", "sws"}) {
    std::string forge = gen_forge(dir, game, 3, 11, 512);
    std::string x = extract_all(forge, dir.path(game + "x"));
    forge::DataFile f = parse(test::read_file(data_path(x, 1)));
    f.entries[0].body.bytes.push_back(7);
    f.entries[0].data_size += 1;
    std::vector<u8> bytes = encode(f);
    std::string added = dir.path("added.bin");
    test::write_file(added, bytes);
    std::string out = forge + ".out";
    auto r = test::run_cli({"put", forge, "--add", added, "--name", "Brand_New", "--id", "0x1234abcd", "--type", "7",
                            "--add", data_path(x, 2), "--name", "Second", "-o", out});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("Brand_New: added (0x1234abcd, type 0x00000007"));
    auto ls = test::run_cli({"ls", out});
    ASSERT_EQ(ls.exit_code, 0) << ls.err;
    EXPECT_THAT(ls.out, HasSubstr("0x1234abcd  Brand_New"));
    EXPECT_THAT(ls.out, HasSubstr("Second"));
    EXPECT_THAT(ls.out, HasSubstr("7 data files"));
    std::string back = dir.path(game + "back");
    auto e = test::run_cli({"extract", out, "Brand_New", "Second", "-o", back, "-q"});
    ASSERT_EQ(e.exit_code, 0) << e.err;
    EXPECT_EQ(test::read_file(back + "/Brand_New.data"), bytes);
    EXPECT_EQ(test::read_file(back + "/Second.data"), test::read_file(data_path(x, 2)));
    // Stored like the archive's first compressed data file, every other data file kept.
    // std::regex: GoogleTest's own regular expressions on Windows are a simple subset without brackets.
    const std::regex stored("Brand_New +type 0x00000007 +stored [0-9]+ +decompressed [0-9]+ +lzo1x");
    EXPECT_TRUE(std::regex_search(ls.out, stored)) << ls.out;
    const auto before = stored_of(forge), after = stored_of(out);
    for (const auto& [name, s] : before) EXPECT_EQ(after.at(name), s) << name;
  }
}

TEST(ForgePut, RemoveThenLsLacksIt) {
  test::TempDir dir;
  std::string forge = gen_forge(dir, "ac2", 3, 12, 512);
  std::string out = forge + ".out";
  auto ids = test::run_cli({"ls", forge});
  auto r = test::run_cli({"put", forge, "--remove", "DataFile_002", "--remove", "DataFile_004", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("DataFile_002: removed"));
  auto ls = test::run_cli({"ls", out});
  ASSERT_EQ(ls.exit_code, 0) << ls.err;
  EXPECT_THAT(ls.out, testing::Not(HasSubstr("DataFile_002")));
  EXPECT_THAT(ls.out, testing::Not(HasSubstr("DataFile_004")));
  EXPECT_THAT(ls.out, HasSubstr("DataFile_003"));
  EXPECT_THAT(ls.out, HasSubstr("3 data files"));
  EXPECT_EQ(fs::file_size(out), fs::file_size(forge)) << "the removed bytes stay, unreferenced";
  // Removed and added back in the same run: the last section's tables grow in place.
  std::string x = extract_all(forge, dir.path("x"));
  r = test::run_cli(
      {"put", forge, "--remove", "DataFile_004", "--add", data_path(x, 4), "--name", "DataFile_004", "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, testing::Not(HasSubstr("moved to the end of the archive")));
}

TEST(ForgePut, APutFileNamedOtherwiseTakesAs) {
  test::TempDir dir;
  std::string forge = gen_forge(dir, "sws", 3, 13, 512);
  std::string x = extract_all(forge, dir.path("x"));
  std::vector<u8> d = test::read_file(data_path(x, 1));
  d.back() ^= 0x10;
  std::string other = dir.path("edited.bin");
  test::write_file(other, d);
  std::string out = forge + ".out";
  auto r = test::run_cli({"put", forge, other, "--as", "DataFile_001", "-o", out, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string back = extract_all(out, dir.path("back"));
  EXPECT_EQ(test::read_file(data_path(back, 1)), d);
  // --raw: bytes that are no data file, stored as they are.
  std::vector<u8> raw = {1, 2, 3, 4, 5, 6, 7};
  test::write_file(other, raw);
  r = test::run_cli({"put", forge, other, "--as", "DataFile_002", "--raw", "-o", out, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  fs::remove_all(back);
  extract_all(out, back);
  EXPECT_EQ(test::read_file(data_path(back, 2)), raw);
}

TEST(ForgePut, BadInputWritesNothing) {
  test::TempDir dir;
  std::string forge = gen_forge(dir, "ac2", 3, 14, 512);
  std::string x = extract_all(forge, dir.path("x"));
  const std::vector<u8> archive = test::read_file(forge);
  std::string junk = dir.path("x/DataFile_001.data");
  std::vector<u8> d = test::read_file(junk);
  d.push_back(0);
  test::write_file(junk, d);
  test::write_file(dir.path("Nope.data"), test::read_file(data_path(x, 0)));
  std::string out = dir.path("out.forge");
  struct Bad {
    std::vector<std::string> args;
    std::string says;
  };
  const Bad cases[] = {
      {{"put", forge, dir.path("Nope.data"), "-o", out}, "no data file named 'Nope'"},
      {{"put", forge, junk, "-o", out}, "not a data file"},
      {{"put", forge, data_path(x, 0), "-o", out, "--in-place"}, "not both"},
      {{"put", forge, data_path(x, 0)}, "missing -o OUT, --in-place or --dry-run"},
      {{"put", forge, data_path(x, 0), data_path(x, 2), "--as", "DataFile_000", "-o", out}, "--as"},
      {{"put", forge, "--remove", "Nope", "-o", out}, "--remove Nope"},
      {{"put", forge, "--add", data_path(x, 0), "--name", "datafile_000", "-o", out},
       "already has a data file named 'DataFile_000'"},
      {{"put", forge, "--add", data_path(x, 0), "--name", "A", "--name", "B", "-o", out}, "given twice"},
      {{"put", forge, "--name", "A", "--add", data_path(x, 0), "-o", out}, "goes after the --add"},
      {{"put", forge, "--add", dir.path("Nope.data"), "--name", "N", "--id", "0xZZ", "-o", out}, "--id 0xZZ"},
      {{"put", forge, data_path(x, 0), "--remove", "DataFile_000", "-o", out}, "also removed"},
      {{"put", forge, "-o", out}, "nothing to put"},
  };
  for (const Bad& b : cases) {
    auto r = test::run_cli(b.args);
    EXPECT_EQ(r.exit_code, 2) << b.says;
    EXPECT_THAT(r.err, HasSubstr(b.says));
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(out)) << b.says;
    EXPECT_EQ(test::read_file(forge), archive);
  }
  // Nothing beside the archive or the output either.
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& f : fs::directory_iterator(dir.path(""))) ++files;
  EXPECT_EQ(files, 3u);  // the archive, x/ and Nope.data: no temporary left
}

}  // namespace
}  // namespace anvil
