// `diff` of two `.forge` archives and of two decompressed data files, run as the binary on generated
// archives of both games: the patch it prints, applied to A, gives B's data files byte for byte; identical
// archives print an empty patch and exit 0; data files only in A or only in B, changed outside their
// objects, or with another header are named on stderr, exit 1; an untouched data file is compared by its
// stored bytes, never decompressed; --json holds the whole comparison.
#include <absl/strings/str_format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "gen/forge.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;

class ArchiveDiff : public ::testing::Test {
 protected:
  std::string generate(const std::string& name, Game game, u64 datafiles, u64 block_size,
                       gen::ForgeRecord* record = nullptr) {
    std::string path = dir_.path(name);
    auto r = test::run_cli({"gen", "--forge", "--game", std::string(game_name(game)), "--datafiles",
                            std::to_string(datafiles), "--visuals", "6", "--seed", "11", "--block-size",
                            std::to_string(block_size), "-o", path});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    if (record) gen::generate_forge({game, datafiles, 6, 11, block_size}, record);
    return path;
  }
  std::string write(const std::string& name, const std::string& text) {
    std::string path = dir_.path(name);
    test::write_file(path, {reinterpret_cast<const u8*>(text.data()), text.size()});
    return path;
  }
  std::string write(const std::string& name, const std::vector<u8>& bytes) {
    std::string path = dir_.path(name);
    test::write_file(path, bytes);
    return path;
  }
  // Every data file `extract` writes from `archive`: file name -> bytes.
  std::map<std::string, std::vector<u8>> extracted(const std::string& archive) {
    std::string out = dir_.path("x" + std::to_string(count_++));
    auto r = test::run_cli({"extract", archive, "-o", out, "-q"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    std::map<std::string, std::vector<u8>> files;
    for (auto& e : std::filesystem::directory_iterator(out))
      if (e.path().extension() == ".data") files[e.path().filename().string()] = test::read_file(e.path().string());
    return files;
  }
  // The keys of each data file's objects, from `dump`.
  std::vector<std::vector<std::string>> keys(const std::string& archive) {
    auto r = test::run_cli({"dump", archive, "-q"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    rapidjson::Document d = test::parse_json(r.out);
    std::vector<std::vector<std::string>> out;
    for (auto& f : d["datafiles"].GetObject()) {
      out.emplace_back();
      for (auto& o : f.value["objects"].GetObject()) out.back().push_back(o.name.GetString());
    }
    return out;
  }

  test::TempDir dir_;
  int count_ = 0;
};

// diff A B, then patch A with it: the result's data files are B's, byte for byte, for both games and
// several block sizes and every stored form gen writes.
TEST_F(ArchiveDiff, PatchOfTheDiffGivesTheSecondArchivesDataFiles) {
  for (Game game : {Game::ac2, Game::sws}) {
    for (u64 block_size : {700u, 32768u}) {
      SCOPED_TRACE(absl::StrFormat("%s, block size %d", game_name(game), block_size));
      const std::string a = generate("a.forge", game, 5, block_size);
      auto k = keys(a);
      ASSERT_GE(k.size(), 5u);
      // A flag gen leaves at 0 set in DataFile_001 and DataFile_004, and (ac2) a transform in DataFile_000 and
      // DataFile_003.
      std::string edit = "[";
      for (std::size_t d : {1u, 4u})
        edit +=
            absl::StrFormat(R"({"op": "replace", "path": "/objects/%s/is_partially_optimized", "value": 1},)", k[d][0]);
      if (game == Game::ac2)
        edit += absl::StrFormat(R"({"op": "transform", "objects": ["%s", "%s"], "translate": [1.5, -2, 3]},)", k[0][0],
                                k[3][1]);
      edit.back() = ']';
      const std::string b = dir_.path("b.forge");
      auto patched = test::run_cli({"patch", a, write("edit.json", edit), "-o", b, "-q"});
      ASSERT_EQ(patched.exit_code, 0) << patched.err;

      auto d = test::run_cli({"diff", a, b});
      EXPECT_EQ(d.exit_code, 1) << d.err;
      EXPECT_THAT(d.out, HasSubstr("\"path\": \"/datafiles/DataFile_001/objects/"));
      EXPECT_THAT(d.err, HasSubstr("anvilrt: data file DataFile_001: changed: "));
      EXPECT_THAT(d.err, Not(HasSubstr("DataFile_002")));  // untouched: identical, not said
      const std::string c = dir_.path("c.forge");
      auto applied = test::run_cli({"patch", a, write("diff.json", d.out), "-o", c, "-q"});
      ASSERT_EQ(applied.exit_code, 0) << applied.err;
      auto want = extracted(b), got = extracted(c);
      EXPECT_EQ(want.size(), 5u);
      EXPECT_TRUE(want == got);

      // The patched copy against B: nothing left to change.
      auto again = test::run_cli({"diff", c, b});
      EXPECT_EQ(again.exit_code, 0) << again.err;
      EXPECT_EQ(again.out, "[]\n");
    }
  }
}

// Each archive's data-file layout is found from the data file that differs (no other is read for it), in
// every layout, both games: the patch diff prints gives B's data files.
TEST_F(ArchiveDiff, EveryLayoutIsFoundFromTheChangedDataFile) {
  for (Game game : {Game::ac2, Game::sws}) {
    for (const char* layout : {"0", "1", "2", "3"}) {
      SCOPED_TRACE(absl::StrFormat("%s, layout %s", game_name(game), layout));
      const std::string a = dir_.path(absl::StrFormat("a-%s-%s.forge", game_name(game), layout));
      auto g = test::run_cli({"gen", "--forge", "--game", std::string(game_name(game)), "--layout", layout,
                              "--datafiles", "3", "--visuals", "6", "--seed", "9", "-o", a, "-q"});
      ASSERT_EQ(g.exit_code, 0) << g.err;
      const std::string key = keys(a)[2][0];
      const std::string b = a + ".b", c = a + ".c";
      auto patched = test::run_cli(
          {"patch", a,
           write("edit.json",
                 absl::StrFormat(R"([{"op": "replace", "path": "/objects/%s/is_partially_optimized", "value": 1}])",
                                 key)),
           "-o", b, "-q"});
      ASSERT_EQ(patched.exit_code, 0) << patched.err;
      auto d = test::run_cli({"diff", a, b});
      EXPECT_EQ(d.exit_code, 1) << d.err;
      EXPECT_EQ(d.err, "anvilrt: data file DataFile_002: changed: 1 field, in the patch\n");
      auto applied = test::run_cli({"patch", a, write("diff.json", d.out), "-o", c, "-q"});
      ASSERT_EQ(applied.exit_code, 0) << applied.err;
      EXPECT_TRUE(extracted(b) == extracted(c));
      auto j = test::run_cli({"diff", "--json", a, b});
      EXPECT_STREQ(test::parse_json(j.out)["game"].GetString(), std::string(game_name(game)).c_str());
    }
  }
}

// Identical archives (the same file, or a copy): an empty patch, nothing on stderr, exit 0; as --json,
// "identical": true and every data file "identical".
TEST_F(ArchiveDiff, IdenticalArchivesPrintAnEmptyPatch) {
  const std::string a = generate("a.forge", Game::ac2, 5, 700);
  const std::string copy = write("copy.forge", test::read_file(a));
  for (const std::string& b : {a, copy}) {
    auto d = test::run_cli({"diff", a, b});
    EXPECT_EQ(d.exit_code, 0) << d.err;
    EXPECT_EQ(d.out, "[]\n");
    EXPECT_EQ(d.err, "");
  }
  auto j = test::run_cli({"diff", "--json", a, copy});
  EXPECT_EQ(j.exit_code, 0) << j.err;
  rapidjson::Document doc = test::parse_json(j.out);
  EXPECT_TRUE(doc["identical"].GetBool());
  ASSERT_EQ(doc["datafiles"].Size(), 5u);
  for (auto& f : doc["datafiles"].GetArray()) EXPECT_STREQ(f["state"].GetString(), "identical");
  EXPECT_EQ(doc["patch"].Size(), 0u);
}

// The layout and dialect of archives that do not differ, where no data file is read for the comparison:
// found as every command finds them, and named in --json (here sws in layout 3, no default).
TEST_F(ArchiveDiff, IdenticalArchivesNameTheirDialect) {
  const std::string a = dir_.path("unity.forge");
  auto g = test::run_cli({"gen", "--forge", "--game", "sws", "--forge-version", "27", "--datafiles", "3", "--visuals",
                          "6", "--seed", "4", "-o", a, "-q"});
  ASSERT_EQ(g.exit_code, 0) << g.err;
  const std::string copy = write("copy.forge", test::read_file(a));
  auto j = test::run_cli({"diff", "--json", a, copy});
  EXPECT_EQ(j.exit_code, 0) << j.err;
  rapidjson::Document doc = test::parse_json(j.out);
  EXPECT_STREQ(doc["game"].GetString(), "sws");
  EXPECT_TRUE(doc["identical"].GetBool());
}

// Data files matched by name: those of one archive only are named, each way, and the exit is 1.
TEST_F(ArchiveDiff, DataFilesOnlyInOneArchiveAreNamed) {
  const std::string five = generate("five.forge", Game::ac2, 5, 700);
  const std::string six = generate("six.forge", Game::ac2, 6, 700);
  auto d = test::run_cli({"diff", five, six});
  EXPECT_EQ(d.exit_code, 1);
  EXPECT_THAT(d.err, HasSubstr("anvilrt: data file DataFile_005: only in B ("));
  auto r = test::run_cli({"diff", six, five});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.err, HasSubstr("anvilrt: data file DataFile_005: only in A ("));
  auto j = test::run_cli({"diff", "--json", six, five});
  rapidjson::Document doc = test::parse_json(j.out);
  EXPECT_FALSE(doc["identical"].GetBool());
  const auto& last = doc["datafiles"][doc["datafiles"].Size() - 1];
  EXPECT_STREQ(last["name"].GetString(), "DataFile_005");
  EXPECT_STREQ(last["state"].GetString(), "only in A");
  EXPECT_TRUE(last["b"].IsNull());
  EXPECT_TRUE(last["a"]["stored_offset"].IsUint64());
}

// A byte of an entry's name (outside every object) flipped in a plain data file of the archive: named
// with its data file offset and entry, said to be carried by put, not by the patch; likewise for the two
// data files extracted; a byte of a data file's 440-byte header is named by its archive offset.
TEST_F(ArchiveDiff, ChangesOutsideObjectsAreNamed) {
  gen::ForgeRecord record;
  const std::string a = generate("a.forge", Game::ac2, 5, 700, &record);
  std::vector<u8> bytes = test::read_file(a);
  std::size_t plain = record.files.size();
  for (std::size_t i = 0; i < record.files.size(); ++i)
    if (record.files[i].form == gen::StoredForm::plain) plain = i;
  ASSERT_LT(plain, record.files.size());
  const std::vector<u8>& data = record.files[plain].decoded;
  auto at = std::search(bytes.begin(), bytes.end(), data.begin(), data.end());
  ASSERT_NE(at, bytes.end());
  // The entry table: [u16 n][10n][u32 m][m], then entry 0's [u32 type][u32 size][u32 name_length][name].
  const u16 n = static_cast<u16>(data[0] | data[1] << 8);
  const std::size_t m_at = 2 + 10 * n;
  const u32 m = data[m_at] | data[m_at + 1] << 8 | data[m_at + 2] << 16 | static_cast<u32>(data[m_at + 3]) << 24;
  const std::size_t name_at = m_at + 4 + m + 12;
  std::vector<u8> edited = bytes;
  edited[(at - bytes.begin()) + name_at] ^= 0x20;
  const std::string b = write("b.forge", edited);
  const std::string line =
      absl::StrFormat("anvilrt: data file %s: changed outside objects at data file offset 0x%x (entry 0 '",
                      record.files[plain].name, name_at);
  auto d = test::run_cli({"diff", a, b});
  EXPECT_EQ(d.exit_code, 1);
  EXPECT_EQ(d.out, "[]\n");
  EXPECT_THAT(d.err, HasSubstr(line));
  EXPECT_THAT(d.err, HasSubstr("not in the patch; anvilrt put carries it"));
  auto j = test::run_cli({"diff", "--json", a, b});
  rapidjson::Document doc = test::parse_json(j.out);
  const auto& f = doc["datafiles"][static_cast<rapidjson::SizeType>(plain)];
  EXPECT_STREQ(f["state"].GetString(), "changed outside objects");
  EXPECT_EQ(f["outside"]["offset"].GetUint64(), name_at);

  // The two data files as extract writes them.
  std::vector<u8> data_b = data;
  data_b[name_at] ^= 0x20;
  auto files = test::run_cli({"diff", write("a.data", data), write("b.data", data_b)});
  EXPECT_EQ(files.exit_code, 1);
  EXPECT_EQ(files.out, "[]\n");
  EXPECT_THAT(files.err,
              HasSubstr(absl::StrFormat("changed outside objects at data file offset 0x%x (entry 0 '", name_at)));

  // A byte of layout 1's m bytes kept after the table (in a view of the data file they are a run, which the
  // walk of the declaration up to the bodies leaves out): named as such, not as entry 0's header.
  ASSERT_GT(m, 0u) << "the generated data file keeps no bytes after its table: pick another seed";
  std::vector<u8> data_m = data;
  data_m[m_at + 4] ^= 0x20;
  auto kept = test::run_cli({"diff", write("a.data", data), write("m.data", data_m)});
  EXPECT_EQ(kept.exit_code, 1);
  EXPECT_THAT(kept.err, HasSubstr(absl::StrFormat("changed outside objects at data file offset 0x%x (the bytes kept "
                                                  "after the entry table)",
                                                  m_at + 4)));

  // A byte of data file 1's header (past its name): its archive offset, carried by neither.
  std::vector<u8> header = bytes;
  const u64 header_at = record.files[1].header_offset + 200;
  header[header_at] ^= 0x01;
  auto h = test::run_cli({"diff", a, write("h.forge", header)});
  EXPECT_EQ(h.exit_code, 1);
  EXPECT_THAT(h.err, HasSubstr(absl::StrFormat("anvilrt: data file %s: its header or table entry differs at archive "
                                               "offset 0x%x",
                                               record.files[1].name, header_at)));
}

// Two data files as extract writes them: the patch addresses /objects/... and, applied to A's data file,
// gives B's byte for byte.
TEST_F(ArchiveDiff, DataFilesDiffAsAPatchOfADataFile) {
  const std::string a = generate("a.forge", Game::ac2, 5, 700);
  auto k = keys(a);
  const std::string b = dir_.path("b.forge");
  auto patched = test::run_cli(
      {"patch", a,
       write("edit.json",
             absl::StrFormat(R"([{"op": "transform", "objects": ["%s"], "translate": [4, 5, 6]}])", k[2][0])),
       "-o", b, "-q"});
  ASSERT_EQ(patched.exit_code, 0) << patched.err;
  auto xa = extracted(a), xb = extracted(b);
  const std::string da = write("a.data", xa.at("DataFile_002.data")), db = write("b.data", xb.at("DataFile_002.data"));
  auto d = test::run_cli({"diff", da, db, "-q"});
  EXPECT_EQ(d.exit_code, 1) << d.err;
  EXPECT_THAT(d.out, HasSubstr("\"path\": \"/objects/" + k[2][0] + "/"));
  EXPECT_THAT(d.err, HasSubstr(": changed: "));
  const std::string c = dir_.path("c.data");
  auto applied = test::run_cli({"patch", da, write("d.json", d.out), "-o", c, "-q"});
  ASSERT_EQ(applied.exit_code, 0) << applied.err;
  EXPECT_EQ(test::read_file(c), xb.at("DataFile_002.data"));
  auto same = test::run_cli({"diff", da, da, "-q"});
  EXPECT_EQ(same.exit_code, 0);
  EXPECT_EQ(same.out, "[]\n");
}

// A data file neither archive changed is compared by its stored bytes: one holding a damaged block (which
// any decompression refuses) is identical, and the diff of the others goes on.
TEST_F(ArchiveDiff, UntouchedDataFilesAreNotDecompressed) {
  gen::ForgeRecord record;
  const std::string clean = generate("clean.forge", Game::ac2, 5, 700, &record);
  std::vector<u8> bytes = test::read_file(clean);
  ASSERT_NE(record.files[0].form, gen::StoredForm::plain);
  // The last byte of data file 0's stored form: inside its last block's compressed bytes.
  bytes[record.files[0].header_offset + 440 + record.files[0].stored_size - 1] ^= 0x5a;
  const std::string a = write("a.forge", bytes);
  ASSERT_EQ(test::run_cli({"ls", a, "-q"}).exit_code, 2) << "the block must read as damaged";
  auto k = keys(clean);
  const std::string b = dir_.path("b.forge");
  auto patched = test::run_cli(
      {"patch", a,
       write("edit.json", absl::StrFormat(R"([{"op": "replace", "path": "/datafiles/DataFile_003/objects/%s/active",
                                              "value": 0}])",
                                          k[3][0])),
       "-o", b, "-q"});
  ASSERT_EQ(patched.exit_code, 0) << patched.err;
  auto d = test::run_cli({"diff", a, b});
  EXPECT_EQ(d.exit_code, 1) << d.err;
  EXPECT_EQ(d.err, "anvilrt: data file DataFile_003: changed: 1 field, in the patch\n");
  EXPECT_THAT(d.out, HasSubstr("/datafiles/DataFile_003/objects/" + k[3][0] + "/active"));
}

// --json: the document's shape (docs/diff.md), its "patch" the patch diff prints.
TEST_F(ArchiveDiff, JsonHoldsTheWholeComparison) {
  gen::ForgeRecord record;
  const std::string a = generate("a.forge", Game::sws, 5, 700, &record);
  const std::string b = dir_.path("b.forge");
  auto patched = test::run_cli(
      {"patch", a,
       write("edit.json",
             absl::StrFormat(R"([{"op": "replace", "path": "/objects/%s/is_partially_optimized", "value": 1}])",
                             keys(a)[0][0])),
       "-o", b, "-q"});
  ASSERT_EQ(patched.exit_code, 0) << patched.err;
  auto j = test::run_cli({"diff", "--json", a, b});
  EXPECT_EQ(j.exit_code, 1) << j.err;
  rapidjson::Document doc = test::parse_json(j.out);
  EXPECT_STREQ(doc["format"].GetString(), "anvilrt-diff/1");
  EXPECT_STREQ(doc["kind"].GetString(), "archives");
  EXPECT_STREQ(doc["game"].GetString(), "sws");
  EXPECT_EQ(doc["a"].GetString(), a);
  ASSERT_EQ(doc["datafiles"].Size(), 5u);
  const auto& f = doc["datafiles"][0];
  EXPECT_STREQ(f["state"].GetString(), "changed");
  EXPECT_EQ(f["a"]["header_offset"].GetUint64(), record.files[0].header_offset);
  EXPECT_EQ(f["a"]["stored_offset"].GetUint64(), record.files[0].header_offset + 440);
  EXPECT_EQ(f["a"]["decompressed_size"].GetUint64(), record.files[0].decoded.size());
  EXPECT_GT(f["ops"].Size(), 0u);
  EXPECT_STREQ(doc["datafiles"][1]["state"].GetString(), "identical");
  EXPECT_FALSE(doc["datafiles"][1]["a"].HasMember("decompressed_size")) << "identical: not decompressed";
  auto plain = test::run_cli({"diff", a, b});
  rapidjson::Document patch = test::parse_json(plain.out);
  EXPECT_TRUE(patch == doc["patch"]);
  EXPECT_EQ(doc["patch"].Size(), f["ops"].Size());
}

// An archive against a file that is not one: bad input, one line.
TEST_F(ArchiveDiff, AnArchiveAndAnotherKindIsBadInput) {
  const std::string a = generate("a.forge", Game::ac2, 5, 700);
  auto xa = extracted(a);
  const std::string data = write("a.data", xa.begin()->second);
  auto d = test::run_cli({"diff", a, data});
  EXPECT_EQ(d.exit_code, 2);
  EXPECT_EQ(d.out, "");
  EXPECT_EQ(d.err, "anvilrt: " + a + " is a forge archive and " + data +
                       " a data file: diff compares two archives, or two level or data files (extract the data "
                       "file first: anvilrt extract)\n");
}

// The same data files cut into blocks of another size: the same decompressed bytes, stored otherwise; the
// plain data file is identical.
TEST_F(ArchiveDiff, DataFilesStoredDifferentlyAreNamed) {
  gen::ForgeRecord record;
  const std::string a = generate("a.forge", Game::ac2, 5, 700, &record);
  const std::string b = generate("b.forge", Game::ac2, 5, 1000);
  auto d = test::run_cli({"diff", a, b});
  EXPECT_EQ(d.exit_code, 1);
  EXPECT_EQ(d.out, "[]\n");
  for (const auto& f : record.files) {
    const std::string line = "anvilrt: data file " + f.name + ": stored differently (the same decompressed bytes";
    if (f.form == gen::StoredForm::plain)
      EXPECT_THAT(d.err, Not(HasSubstr(f.name)));
    else
      EXPECT_THAT(d.err, HasSubstr(line));
  }
}

// Two level files with --json: the same document, "kind": "level files", and the exit level diff has
// always had (0 when fields alone differ).
TEST_F(ArchiveDiff, LevelFilesAsJson) {
  const std::string a = test::corpus("ac2/lod_selector_slots.bin");
  auto same = test::run_cli({"diff", "--json", a, a});
  EXPECT_EQ(same.exit_code, 0) << same.err;
  rapidjson::Document doc = test::parse_json(same.out);
  EXPECT_STREQ(doc["kind"].GetString(), "level files");
  EXPECT_TRUE(doc["identical"].GetBool());
  EXPECT_EQ(doc["datafiles"][0]["a_size"].GetUint64(), test::read_file(a).size());
  std::vector<u8> bytes = test::read_file(a);
  bytes.push_back(0);  // one byte longer: not the same objects and opaque bytes
  auto longer = test::run_cli({"diff", "--json", a, write("b.bin", bytes)});
  EXPECT_EQ(longer.exit_code, 1);
  rapidjson::Document d = test::parse_json(longer.out);
  EXPECT_STREQ(d["datafiles"][0]["state"].GetString(), "changed outside objects");
  EXPECT_EQ(d["datafiles"][0]["outside"]["offset"].GetUint64(), test::read_file(a).size());
}

}  // namespace
}  // namespace anvil
