// `extract`'s forge.json, `pack` and `compact`, run as the binary on generated archives of both games,
// several block sizes and every stored form gen writes: forge.json states each field as the archive has it,
// pack honours each one, an unchanged extraction packs to an archive that extracts to the same files (and
// the same forge.json), compact keeps every table and stored byte and leaves no unreferenced byte, and bad
// input is one line, exit 2, nothing written.
#include <absl/strings/str_format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <filesystem>
#include <map>

#include "gen/forge.hpp"
#include "model/json_text.hpp"
#include "pipeline/forge_rewrite.hpp"
#include "platform/paths.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/forge/referenced.hpp"
#include "tests/test_support.hpp"
#include "writer/forge/archive_writer.hpp"

namespace anvil::forge {
namespace pack_test {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

struct Shape {
  Game game;
  u64 datafiles;
  u64 visuals;
  u64 seed;
  u64 block_size;
};
// Seven data files: every form gen writes (two block sets, LZO2A chunks, plain, a block set then chunks,
// LZO1X chunks), then the first two again; block sizes from the default down to where most blocks do
// not shrink and are stored plain.
const Shape kShapes[] = {{Game::ac2, 7, 4, 11, 32768},
                         {Game::ac2, 7, 3, 12, 700},
                         {Game::ac2, 6, 2, 13, 16},
                         {Game::sws, 7, 4, 14, 4096},
                         {Game::sws, 5, 3, 15, 65535}};

std::string generated(const test::TempDir& dir, const Shape& s, const std::string& name) {
  std::string path = dir.path(name);
  auto r = test::run_cli({"gen", "--forge", "--game", s.game == Game::ac2 ? "ac2" : "sws", "--datafiles",
                          std::to_string(s.datafiles), "--visuals", std::to_string(s.visuals), "--seed",
                          std::to_string(s.seed), "--block-size", std::to_string(s.block_size), "-o", path, "-q"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return path;
}

// Every file of a folder by name.
std::map<std::string, std::vector<u8>> folder_files(const std::string& dir) {
  std::map<std::string, std::vector<u8>> out;
  for (const auto& e : fs::directory_iterator(platform::path_of(dir)))
    out[platform::utf8_of(e.path().filename())] = test::read_file(platform::utf8_of(e.path()));
  return out;
}

std::map<std::string, std::vector<u8>> extracted(const std::string& archive, const std::string& dir) {
  auto r = test::run_cli({"extract", archive, "-o", dir, "-q"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return folder_files(dir);
}

rapidjson::Document json_of(const std::string& path) {
  rapidjson::Document doc;
  doc.Parse(test::read_text(path).c_str());
  EXPECT_FALSE(doc.HasParseError()) << path;
  return doc;
}

void write_json(const std::string& path, const rapidjson::Document& doc) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  doc.Accept(w);
  test::write_file(path, std::span(reinterpret_cast<const u8*>(buffer.GetString()), buffer.GetSize()));
}

std::string hex(std::span<const u8> bytes) {
  std::string out;
  json_text::append_hex(out, bytes.data(), bytes.size());
  return out;
}

std::string str(const rapidjson::Value& v) { return std::string(v.GetString(), v.GetStringLength()); }

Archive tables_of(const std::vector<u8>& bytes) {
  auto a = read_archive(bytes);
  EXPECT_TRUE(a.ok()) << a.status();
  return a.ok() ? *a : Archive{};
}

// What ls --json says of each data file but where it lies: id, name, type, sizes decompressed, compression.
std::vector<std::string> ls_summary(const std::string& archive) {
  auto r = test::run_cli({"ls", archive, "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  rapidjson::Document doc;
  doc.Parse(r.out.c_str());
  std::vector<std::string> out;
  for (const auto& f : doc["datafiles"].GetArray())
    out.push_back(absl::StrFormat("%s %s %s %d %s", f["file_id"].GetString(), f["name"].GetString(),
                                  f["file_type"].GetString(), f["decompressed_size"].GetUint64(),
                                  f["compression"].GetString()));
  out.push_back(doc["checksum_rule"].GetString());
  return out;
}

// Every field of forge.json is what the archive holds.
TEST(ForgeJson, EveryFieldIsTheArchives) {
  test::TempDir dir;
  for (const Shape& s : kShapes) {
    SCOPED_TRACE(s.block_size);
    std::string archive = generated(dir, s, "a.forge");
    gen::ForgeRecord record;
    std::vector<u8> bytes = gen::generate_forge({s.game, s.datafiles, s.visuals, s.seed, s.block_size}, &record);
    ASSERT_EQ(test::read_file(archive), bytes);
    const Archive a = tables_of(bytes);
    std::string out = dir.path("x" + std::to_string(s.seed));
    extracted(archive, out);
    rapidjson::Document doc = json_of(out + "/forge.json");
    EXPECT_EQ(str(doc["format"]), "anvilrt forge.json");
    EXPECT_EQ(doc["format_version"].GetInt(), 1);
    EXPECT_TRUE(doc["complete"].GetBool());
    const auto& ar = doc["archive"];
    EXPECT_EQ(ar["version"].GetUint(), 25u);
    EXPECT_EQ(ar["datafiles"].GetUint64(), s.datafiles);
    EXPECT_EQ(str(ar["checksum_rule"]), "adler32-0/stored");
    EXPECT_EQ(ar["alignment"].GetUint64(), data_file_alignment(a));
    EXPECT_EQ(ar["header_unknown"].GetUint(), a.header.unknown);
    EXPECT_EQ(str(ar["header_kept"]), hex(a.header.unknown_1.bytes));
    EXPECT_EQ(str(ar["data_header_kept"]), hex(a.data_header.unknown.bytes));
    ASSERT_EQ(ar["sections"].Size(), a.sections.size());
    for (std::size_t k = 0; k < a.sections.size(); ++k) {
      const auto& j = ar["sections"][static_cast<rapidjson::SizeType>(k)];
      const TableSection& t = a.sections[k].table;
      EXPECT_EQ(j["count"].GetInt(), t.count);
      EXPECT_EQ(str(j["unknown_0"]), hex(t.unknown_0.bytes));
      EXPECT_EQ(str(j["unknown_1"]), hex(t.unknown_1.bytes));
      EXPECT_EQ(str(j["unknown_2"]), hex(t.unknown_2.bytes));
    }
    ASSERT_EQ(doc["datafiles"].Size(), s.datafiles);
    for (std::size_t i = 0; i < s.datafiles; ++i) {
      SCOPED_TRACE(i);
      const auto& j = doc["datafiles"][static_cast<rapidjson::SizeType>(i)];
      const gen::ForgeRecord::DataFile& want = record.files[i];
      const DataFileAt& f = a.files[i];
      EXPECT_EQ(str(j["name"]), want.name);
      EXPECT_EQ(str(j["file"]), want.name + ".data");
      EXPECT_EQ(str(j["file_id"]), absl::StrFormat("0x%08x", want.file_id));
      EXPECT_EQ(str(j["name_entry"]), want.name);
      EXPECT_EQ(str(j["file_type"]), absl::StrFormat("0x%08x", f.name.file_type.value));
      EXPECT_EQ(str(j["compression"]), compression_name(want.compression));
      EXPECT_EQ(str(j["form"]), gen::stored_form_name(want.form));
      auto stored = read_stored(bytes, a, i);
      ASSERT_TRUE(stored.ok());
      std::string prefix;
      for (const auto& p : stored->prefix) prefix += hex(p.bytes);
      EXPECT_EQ(str(j["prefix"]), prefix);
      const bool plain = want.form == gen::StoredForm::plain;
      const bool two =
          want.form == gen::StoredForm::two_block_sets || want.form == gen::StoredForm::block_set_then_chunks;
      EXPECT_EQ(j.HasMember("block_size"), !plain);
      if (!plain) {
        EXPECT_EQ(j["block_size"].GetUint64(), std::min<u64>(s.block_size, want.decoded.size()));
      }
      EXPECT_EQ(j.HasMember("first_set_size"), two);
      if (two) {
        EXPECT_EQ(j["first_set_size"].GetUint64(), std::min<u64>(s.block_size, want.decoded.size()));
      }
      EXPECT_EQ(j.HasMember("sets"), !plain);
      if (!plain) {
        ASSERT_EQ(j["sets"].Size(), two ? 2u : 1u);
        const BlockSet* sets[] = {&*stored->first, stored->second ? &*stored->second : nullptr};
        for (rapidjson::SizeType k = 0; k < j["sets"].Size(); ++k) {
          EXPECT_EQ(j["sets"][k]["compression_id"].GetUint(), sets[k]->compression);
          EXPECT_EQ(j["sets"][k]["block_size_field"].GetUint(), sets[k]->block_size);
          EXPECT_EQ(j["sets"][k]["max_size"].GetUint(), sets[k]->max_size);
        }
      }
      // gen stores the fourth form's raw_size as the decompressed size, the others' as the index size.
      EXPECT_EQ(str(j["raw_size"]), want.form == gen::StoredForm::block_set_then_chunks ? "decompressed" : "stored");
      std::vector<u8> kept(f.name.unknown_0.bytes.begin(), f.name.unknown_0.bytes.end());
      kept.insert(kept.end(), f.name.unknown_1.bytes.begin(), f.name.unknown_1.bytes.end());
      kept.insert(kept.end(), f.name.unknown_2.bytes.begin(), f.name.unknown_2.bytes.end());
      EXPECT_EQ(str(j["name_entry_kept"]), hex(kept));
      EXPECT_EQ(str(j["header_name"]), want.name);
      EXPECT_EQ(str(j["header_kept"]), hex(f.header.unknown.bytes));
    }
  }
}

// pack of an unchanged extraction: the packed archive extracts to the same data files and the same
// forge.json (every field kept), ls agrees, and pack says the archive is a new one.
TEST(Pack, AnUnchangedExtractionReadsBackTheSame) {
  test::TempDir dir;
  int n = 0;
  for (const Shape& s : kShapes) {
    SCOPED_TRACE(s.block_size);
    const std::string tag = std::to_string(n++);
    std::string archive = generated(dir, s, "a" + tag + ".forge");
    auto before = extracted(archive, dir.path("x" + tag));
    std::string packed = dir.path("p" + tag + ".forge");
    auto r = test::run_cli({"pack", dir.path("x" + tag), "-o", packed});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr("not byte-identical to the original (anvilrt put is the byte-exact path)"));
    EXPECT_EQ(r.err, "");
    auto after = extracted(packed, dir.path("y" + tag));
    EXPECT_EQ(after, before);  // every data file, and forge.json
    EXPECT_EQ(ls_summary(packed), ls_summary(archive));
    // Laid out from scratch: nothing but alignment padding is unreferenced.
    const Archive p = tables_of(test::read_file(packed));
    EXPECT_TRUE(check_no_unreferenced(p, 16).ok());
    auto verify = test::run_cli({"verify", packed, "-q"});
    EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;
  }
}

// An edited extraction (a data file grown, another shrunk to nothing): pack reads back the edited bytes.
TEST(Pack, EditedDataFilesOfAnySize) {
  test::TempDir dir;
  std::string archive = generated(dir, kShapes[1], "a.forge");
  std::string x = dir.path("x");
  auto files = extracted(archive, x);
  std::vector<u8> grown = files["DataFile_000.data"];
  for (int k = 0; k < 5000; ++k) grown.push_back(static_cast<u8>(k * 7));
  test::write_file(dir.path("x/DataFile_000.data"), grown);
  test::write_file(dir.path("x/DataFile_001.data"), std::vector<u8>{});
  auto r = test::run_cli({"pack", x, "-o", dir.path("p.forge"), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto after = extracted(dir.path("p.forge"), dir.path("y"));
  EXPECT_EQ(after["DataFile_000.data"], grown);
  EXPECT_EQ(after["DataFile_001.data"], std::vector<u8>{});
  EXPECT_EQ(after["DataFile_004.data"], files["DataFile_004.data"]);
}

// Each field of forge.json, changed, is what the packed archive holds.
TEST(Pack, HonoursEveryField) {
  test::TempDir dir;
  std::string archive = generated(dir, kShapes[1], "a.forge");
  std::string x = dir.path("x");
  auto files = extracted(archive, x);
  rapidjson::Document doc = json_of(dir.path("x/forge.json"));
  auto& alloc = doc.GetAllocator();
  auto set_string = [&](rapidjson::Value& v, const char* key, const std::string& text) {
    v[key].SetString(text.c_str(), static_cast<rapidjson::SizeType>(text.size()), alloc);
  };
  auto& ar = doc["archive"];
  ar["alignment"].SetUint(4096);
  ar["header_unknown"].SetUint(0x5a);
  set_string(ar, "header_kept", "0102030405");
  set_string(ar, "data_header_kept", std::string(64, 'e'));
  set_string(ar, "checksum_rule", "adler32-1/decompressed");
  ar["sections"][0]["count"].SetUint(2);
  ar["sections"][1]["count"].SetUint(5);
  set_string(ar["sections"][1], "unknown_0", "a1a2a3a4");
  set_string(ar["sections"][1], "unknown_1", "b1b2b3b4b5b6b7b8");
  set_string(ar["sections"][1], "unknown_2", "c1c2c3c4c5c6c7c8");
  auto& d0 = doc["datafiles"][0];  // two block sets, LZO1X
  set_string(d0, "file_id", "0x0badf00d");
  set_string(d0, "name_entry", "renamed\\x01");
  set_string(d0, "file_type", "0x12345678");
  set_string(d0, "compression", "lzo1c");
  d0["block_size"].SetUint(300);
  d0["first_set_size"].SetUint(1000);
  d0["sets"][0]["compression_id"].SetUint(5);
  d0["sets"][1]["compression_id"].SetUint(2);  // the second set may differ
  d0["sets"][0]["block_size_field"].SetUint(0x1234);
  d0["sets"][1]["max_size"].SetUint(777);
  set_string(d0, "prefix", "00112233445566778899aabbccddeeff");
  d0["raw_size"].SetUint(12345);
  set_string(d0, "name_entry_kept", std::string(104, 'd'));
  set_string(d0, "header_name", "header name");
  set_string(d0, "header_kept", std::string(624, 'f'));
  auto& d1 = doc["datafiles"][1];  // LZO2A chunks, packed as a block set then chunks
  set_string(d1, "form", "block set, then chunks");
  d1.AddMember("first_set_size", 100, alloc);
  d1["sets"].PushBack(rapidjson::Value(rapidjson::kObjectType), alloc);
  d1["sets"][1].AddMember("compression_id", 2, alloc);
  d1["sets"][1].AddMember("block_size_field", 9, alloc);
  d1["sets"][1].AddMember("max_size", 0, alloc);
  auto& d2 = doc["datafiles"][2];  // plain, packed as LZO1X chunks of 64
  set_string(d2, "compression", "lzo1x");
  set_string(d2, "form", "chunks");
  d2.AddMember("block_size", 64, alloc);
  d2["raw_size"].SetString("decompressed");
  auto& d3 = doc["datafiles"][3];  // packed plain, with no sets
  set_string(d3, "compression", "plain");
  set_string(d3, "form", "plain");
  d3.RemoveMember("sets");
  d3.RemoveMember("block_size");
  d3.RemoveMember("first_set_size");
  write_json(dir.path("x/forge.json"), doc);

  std::string packed = dir.path("p.forge");
  auto r = test::run_cli({"pack", x, "-o", packed, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<u8> bytes = test::read_file(packed);
  const Archive a = tables_of(bytes);
  EXPECT_EQ(a.header.unknown, 0x5a);
  EXPECT_EQ(a.header.unknown_1.bytes, (std::vector<u8>{1, 2, 3, 4, 5}));
  std::array<u8, 32> ee;
  ee.fill(0xee);
  EXPECT_EQ(a.data_header.unknown.bytes, ee);
  ASSERT_EQ(a.sections.size(), 2u);
  EXPECT_EQ(a.sections[0].table.count, 2);
  EXPECT_EQ(a.sections[1].table.count, 5);
  EXPECT_EQ(hex(a.sections[1].table.unknown_0.bytes), "a1a2a3a4");
  EXPECT_EQ(hex(a.sections[1].table.unknown_1.bytes), "b1b2b3b4b5b6b7b8");
  EXPECT_EQ(hex(a.sections[1].table.unknown_2.bytes), "c1c2c3c4c5c6c7c8");
  for (const DataFileAt& f : a.files) EXPECT_EQ(f.index.offset % 4096, 0u);
  EXPECT_EQ(archive_checksums(bytes, a).verdict.name(), "adler32-1/decompressed");

  // The decompressed size of each set, and the largest block or chunk.
  auto sizes = [&](const StoredDataFile& stored) {
    std::array<u64, 3> out{};
    for (const BlockAt& b : block_layout(stored, 0)) {
      out[b.set] += b.decoded_size;
      out[2] = std::max(out[2], b.decoded_size);
    }
    return out;
  };
  auto s0 = read_stored(bytes, a, 0);
  ASSERT_TRUE(s0.ok()) << s0.status();
  const DataFileAt& f0 = a.files[0];
  EXPECT_EQ(f0.index.file_id.value, 0x0badf00du);
  EXPECT_EQ(data_file_name(f0), "renamed\x01");
  EXPECT_EQ(f0.name.file_type.value, 0x12345678u);
  ASSERT_TRUE(s0->first && s0->second);
  EXPECT_EQ(s0->first->compression, 5);
  EXPECT_EQ(s0->second->compression, 2);
  EXPECT_EQ(s0->first->block_size, 0x1234);
  EXPECT_EQ(s0->second->max_size, 777);
  EXPECT_NE(s0->second->blocks.size(), 0u);
  EXPECT_EQ(sizes(*s0)[0], 1000u);
  EXPECT_EQ(sizes(*s0)[2], 300u);
  ASSERT_EQ(s0->prefix.size(), 2u);
  EXPECT_EQ(hex(s0->prefix[1].bytes), "8899aabbccddeeff");
  EXPECT_EQ(f0.name.raw_size, 12345u);
  EXPECT_EQ(hex(f0.name.unknown_0.bytes) + hex(f0.name.unknown_1.bytes) + hex(f0.name.unknown_2.bytes),
            std::string(104, 'd'));
  EXPECT_EQ(std::string(reinterpret_cast<const char*>(f0.header.name.bytes.data())), "header name");
  EXPECT_EQ(hex(f0.header.unknown.bytes), std::string(624, 'f'));

  auto s1 = read_stored(bytes, a, 1);
  ASSERT_TRUE(s1.ok() && s1->second);
  EXPECT_EQ(s1->second->max_size, 0);  // chunks
  EXPECT_EQ(s1->second->block_size, 9);
  EXPECT_EQ(sizes(*s1)[0], 100u);
  auto s2 = read_stored(bytes, a, 2);
  ASSERT_TRUE(s2.ok() && s2->first && !s2->second);
  EXPECT_EQ(compression_of(*s2), Compression::lzo1x);
  EXPECT_EQ(sizes(*s2)[2], 64u);
  EXPECT_EQ(a.files[2].name.raw_size, files["DataFile_002.data"].size());
  auto s3 = read_stored(bytes, a, 3);
  ASSERT_TRUE(s3.ok());
  EXPECT_FALSE(s3->compressed);

  // And every data file decompresses to its file (DataFile_000 under its new name).
  auto after = extracted(packed, dir.path("y"));
  EXPECT_EQ(after["renamed%01.data"], files["DataFile_000.data"]);
  for (const char* name : {"DataFile_001.data", "DataFile_002.data", "DataFile_003.data", "DataFile_006.data"})
    EXPECT_EQ(after[name], files[name]) << name;
}

// forge.json says none (or n/a): pack gives checksums by adler32-0/stored, and says so.
TEST(Pack, ARuleOfNoneBecomesAdler32From0) {
  test::TempDir dir;
  std::string archive = generated(dir, kShapes[0], "a.forge");
  std::string x = dir.path("x");
  extracted(archive, x);
  for (const char* rule : {"none", "n/a"}) {
    rapidjson::Document doc = json_of(dir.path("x/forge.json"));
    doc["archive"]["checksum_rule"].SetString(rule, doc.GetAllocator());
    write_json(dir.path("x/forge.json"), doc);
    std::string packed = dir.path("p.forge");
    auto r = test::run_cli({"pack", x, "-o", packed, "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(r.err,
              "anvilrt: " + x +
                  "/forge.json: the archive's checksum rule was none or n/a: checksums written by adler32-0/stored\n");
    const std::vector<u8> bytes = test::read_file(packed);
    EXPECT_EQ(archive_checksums(bytes, tables_of(bytes)).verdict.name(), "adler32-0/stored");
  }
}

// A rule over the decompressed bytes where most blocks do not shrink and are stored plain (blocks of 16
// bytes): every block's checksum follows it, though the archive's vote may name its twin over the stored
// bytes (a plain block's stored and decompressed bytes are the same).
TEST(Pack, ARuleOverTheDecompressedBytesWithMostBlocksPlain) {
  test::TempDir dir;
  std::string archive = generated(dir, kShapes[2], "a.forge");
  std::string x = dir.path("x");
  auto files = extracted(archive, x);
  rapidjson::Document doc = json_of(dir.path("x/forge.json"));
  doc["archive"]["checksum_rule"].SetString("adler32-1/decompressed", doc.GetAllocator());
  write_json(dir.path("x/forge.json"), doc);
  std::string packed = dir.path("p.forge");
  auto r = test::run_cli({"pack", x, "-o", packed, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<u8> bytes = test::read_file(packed);
  const Archive a = tables_of(bytes);
  ChecksumVerdict by_rule;
  by_rule.rule = by_rule.best = ChecksumRule::adler32_1_decoded;
  by_rule.blocks = by_rule.matched = 1;
  std::size_t checked = 0;
  for (std::size_t i = 0; i < a.files.size(); ++i) {
    auto read = read_data_file(bytes, a, i, by_rule);
    ASSERT_TRUE(read.ok()) << read.status();
    checked += read->decoded.checked_blocks;
  }
  EXPECT_GT(checked, 0u);
}

// Bad input: one line naming the file (and the field), exit 2, nothing written.
TEST(Pack, BadInputWritesNothing) {
  test::TempDir dir;
  std::string archive = generated(dir, kShapes[2], "a.forge");
  const std::string x = dir.path("x");
  auto files = extracted(archive, x);
  const std::string list = test::read_text(dir.path("x/forge.json"));
  auto refused = [&](const std::string& expected) {
    std::string out = dir.path("p.forge");
    auto r = test::run_cli({"pack", x, "-o", out});
    EXPECT_EQ(r.exit_code, 2) << expected;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_THAT(r.err, HasSubstr(expected));
    EXPECT_EQ(r.out, "");
    EXPECT_FALSE(fs::exists(out));
    for (const auto& e : fs::directory_iterator(dir.path("")))
      EXPECT_THAT(e.path().filename().string(), Not(HasSubstr("anvilrt-tmp")));
  };
  auto with_list = [&](const std::string& from, const std::string& to) {
    std::string text = list;
    auto at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
    test::write_file(dir.path("x/forge.json"), std::span(reinterpret_cast<const u8*>(text.data()), text.size()));
  };

  fs::rename(dir.path("x/DataFile_002.data"), dir.path("moved"));
  refused(dir.path("x/DataFile_002.data: missing (forge.json lists it as datafiles[2], 'DataFile_002')"));
  fs::rename(dir.path("moved"), dir.path("x/DataFile_002.data"));
  test::write_file(dir.path("x/stray.txt"), std::vector<u8>{1});
  refused(dir.path("x/stray.txt: not listed in forge.json"));
  fs::remove(dir.path("x/stray.txt"));

  with_list("\"complete\": true", "\"complete\": false");
  refused(dir.path("x/forge.json: complete: false: it lists 6 of the archive's 6 data files"));
  with_list("\"file_id\": \"0x", "\"file_id\": \"0y");
  refused(dir.path("x/forge.json: datafiles[0].file_id: '0y"));
  with_list("\"compression\": \"lzo2a\"", "\"compression\": \"zip\"");
  refused(dir.path("x/forge.json: datafiles[1].compression: 'zip' is not plain, lzo1x, lzo2a or lzo1c"));
  with_list("\"form\": \"chunks\"", "\"form\": \"plain\"");
  refused(dir.path("x/forge.json: datafiles[1].compression: lzo2a does not go with the form 'plain'"));
  with_list("\"block_size\": 16", "\"block_size\": 70000");
  refused(dir.path("x/forge.json: datafiles[0].block_size: a block table's sizes are u16: at most 65535"));
  with_list("\"checksum_rule\": \"adler32-0/stored\"", "\"checksum_rule\": \"crc\"");
  refused(dir.path("x/forge.json: archive.checksum_rule: 'crc' is not"));
  with_list("\"count\": 3", "\"count\": 4");
  refused(dir.path("x/forge.json: archive.sections: the table sections list 7 data files, not 6"));
  with_list("\"version\": 25", "\"version\": 24");
  refused(dir.path("x/forge.json: archive.version: 24: only versions 25, 26 and 27 are written"));
  // Version 27's ids are 64-bit: a list that says 27 spells them with 16 hex digits.
  with_list("\"version\": 25", "\"version\": 27");
  refused(dir.path("x/forge.json: datafiles[0].file_id: '0x"));
  refused("' is not \"0x\" and 16 hex digits");
  with_list("\"file\": \"DataFile_001.data\"", "\"file\": \"DataFile_000.data\"");
  refused(dir.path("x/forge.json: datafiles[1].file: 'DataFile_000.data' is listed twice"));
  with_list("{", "[");
  refused(dir.path("x/forge.json: offset "));
  fs::remove(dir.path("x/forge.json"));
  refused(dir.path("x/forge.json: missing (anvilrt extract writes it beside the data files; pack needs it)"));

  // A folder extract wrote for some data files only.
  const std::string some = dir.path("some");
  ASSERT_EQ(test::run_cli({"extract", archive, "DataFile_001", "-o", some, "-q"}).exit_code, 0);
  auto r = test::run_cli({"pack", some, "-o", dir.path("p.forge")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err,
              HasSubstr("complete: false: it lists 1 of the archive's 6 data files (extract was given selectors"));
}

// compact of generated archives: the same tables and stored bytes, the same extraction, and no
// unreferenced byte but the padding the alignment needs (none with --align 1).
TEST(Compact, KeepsEverythingButUnreferencedBytes) {
  test::TempDir dir;
  int n = 0;
  for (const Shape& s : kShapes) {
    SCOPED_TRACE(s.block_size);
    const std::string tag = std::to_string(n++);
    std::string archive = generated(dir, s, "a" + tag + ".forge");
    const std::vector<u8> bytes = test::read_file(archive);
    const Archive a = tables_of(bytes);
    EXPECT_FALSE(unreferenced_ranges(a).empty()) << "gen pads between data files";
    auto before = extracted(archive, dir.path("x" + tag));
    for (const char* align : {"", "1", "4096"}) {
      SCOPED_TRACE(align);
      std::string out = dir.path(absl::StrFormat("c%s-%s.forge", tag, align));
      std::vector<std::string> args = {"compact", archive, "-o", out};
      if (*align) args.insert(args.end(), {"--align", align});
      auto r = test::run_cli(args);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      const u64 alignment = *align ? std::stoull(align) : data_file_alignment(a);
      EXPECT_THAT(r.out, HasSubstr(absl::StrFormat("no unreferenced byte; aligned to %d", alignment)));
      const std::vector<u8> written = test::read_file(out);
      const Archive c = tables_of(written);
      EXPECT_TRUE(check_no_unreferenced(c, alignment).ok()) << check_no_unreferenced(c, alignment);
      if (alignment == 1) {
        EXPECT_TRUE(unreferenced_ranges(c).empty());
        EXPECT_LT(written.size(), bytes.size());
      }
      ASSERT_EQ(c.files.size(), a.files.size());
      for (std::size_t i = 0; i < a.files.size(); ++i) {
        EXPECT_TRUE(std::equal(bytes.begin() + a.files[i].index.offset, bytes.begin() + a.files[i].end(),
                               written.begin() + c.files[i].index.offset, written.begin() + c.files[i].end()))
            << "data file " << i << ": its header and stored bytes";
        EXPECT_EQ(c.files[i].index.file_id.value, a.files[i].index.file_id.value);
        EXPECT_EQ(c.files[i].name.raw_size, a.files[i].name.raw_size);
        EXPECT_EQ(c.files[i].name.unknown_2.bytes, a.files[i].name.unknown_2.bytes);
      }
      auto after = extracted(out, dir.path(absl::StrFormat("y%s-%s", tag, align)));
      // The same data files and forge.json, but the alignment it states.
      for (const auto& [name, content] : before)
        if (name != "forge.json") {
          EXPECT_EQ(after[name], content) << name;
        }
      EXPECT_EQ(ls_summary(out), ls_summary(archive));
    }
  }
}

// An archive where a patch did not fit: the data file moved to the end, its old place unreferenced.
// compact drops it; --in-place replaces the archive.
TEST(Compact, AfterADataFileMoved) {
  test::TempDir dir;
  std::string archive = generated(dir, kShapes[1], "a.forge");
  const std::vector<u8> bytes = test::read_file(archive);
  const Archive a = tables_of(bytes);
  auto read = read_data_file(bytes, a, 1, archive_checksums(bytes, a).verdict);
  ASSERT_TRUE(read.ok());
  std::vector<u8> decoded(read->decoded.bytes.begin(), read->decoded.bytes.end());
  u64 x = 0x9E3779B97F4A7C15ull;  // incompressible bytes over the end: it no longer fits its place
  for (u64 k = decoded.size() / 2; k < decoded.size(); ++k) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    decoded[k] = static_cast<u8>(x);
  }
  std::string moved = dir.path("moved.forge");
  auto reports = rewrite_file(bytes, std::vector<DataFileChange>{{1, decoded}}, moved);
  ASSERT_TRUE(reports.ok()) << reports.status();
  ASSERT_TRUE((*reports)[0].placement.moved);
  const std::vector<u8> moved_bytes = test::read_file(moved);
  const Archive m = tables_of(moved_bytes);
  u64 unreferenced = 0;
  for (const ByteRange& r : unreferenced_ranges(m)) unreferenced += r.end - r.begin;
  EXPECT_GE(unreferenced, a.files[1].end() - a.files[1].index.offset) << "the old place is unreferenced";

  auto before = extracted(moved, dir.path("x"));
  auto r = test::run_cli({"compact", moved, "--in-place", "--align", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<u8> compacted = test::read_file(moved);
  EXPECT_EQ(compacted.size(), moved_bytes.size() - unreferenced);
  EXPECT_TRUE(unreferenced_ranges(tables_of(compacted)).empty());
  auto after = extracted(moved, dir.path("y"));
  EXPECT_EQ(after.erase("forge.json"), 1u);
  before.erase("forge.json");
  EXPECT_EQ(after, before);
  EXPECT_EQ(after["DataFile_001.data"], decoded);
}

// After put removed a data file (its bytes left unreferenced) and added one (a table section's tables moved
// to the end): compact keeps every data file and drops the rest.
TEST(Compact, AfterPutRemovedAndAdded) {
  test::TempDir dir;
  std::string archive = generated(dir, kShapes[3], "a.forge");
  auto files = extracted(archive, dir.path("x"));
  std::string edited = dir.path("r.forge");
  auto r = test::run_cli({"put", archive, "--remove", "DataFile_002", "--add", dir.path("x") + "/DataFile_001.data",
                          "--name", "Added", "--id", "0x00000077", "--type", "0x10", "-o", edited, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const Archive before = tables_of(test::read_file(edited));
  u64 unreferenced = 0;
  for (const ByteRange& u : unreferenced_ranges(before)) unreferenced += u.end - u.begin;
  ASSERT_GT(unreferenced, files["DataFile_002.data"].size() / 2);
  std::string out = dir.path("c.forge");
  r = test::run_cli({"compact", edited, "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::vector<u8> written = test::read_file(out);
  const Archive c = tables_of(written);
  EXPECT_TRUE(check_no_unreferenced(c, data_file_alignment(before)).ok());
  EXPECT_LT(written.size(), test::read_file(edited).size());
  EXPECT_EQ(ls_summary(out), ls_summary(edited));
  auto a = extracted(edited, dir.path("y"));
  auto b = extracted(out, dir.path("z"));
  a.erase("forge.json");
  b.erase("forge.json");
  EXPECT_EQ(a, b);
  EXPECT_EQ(b["Added.data"], files["DataFile_001.data"]);
  EXPECT_EQ(b.count("DataFile_002.data"), 0u);
}

// Bad input: one line, exit 2, nothing written.
TEST(Compact, BadInputWritesNothing) {
  test::TempDir dir;
  std::string archive = generated(dir, kShapes[2], "a.forge");
  std::string out = dir.path("c.forge");
  auto refused = [&](std::vector<std::string> args, const std::string& expected) {
    auto r = test::run_cli(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_THAT(r.err, HasSubstr(expected));
    EXPECT_FALSE(fs::exists(out));
  };
  std::vector<u8> bytes = test::read_file(archive);
  bytes[0] = 'x';
  std::string bad = dir.path("bad.forge");
  test::write_file(bad, bytes);
  refused({"compact", bad, "-o", out}, bad + ": not a .forge archive");
  refused({"compact", archive, "-o", out, "--align", "3"}, "--align 3: must be a power of two");
  refused({"compact", archive}, "missing -o OUT or --in-place");
  refused({"compact", archive, "-o", out, "--in-place"}, "give either -o OUT or --in-place, not both");
  refused({"compact", dir.path("none.forge"), "-o", out}, "none.forge");
}

// The referenced ranges of a generated archive: everything but the padding gen put before each data file
// and after the last.
TEST(Referenced, TheGeneratorsPaddingIsUnreferenced) {
  gen::ForgeRecord record;
  const std::vector<u8> bytes = gen::generate_forge({Game::ac2, 7, 2, 3, 500}, &record);
  const Archive a = tables_of(bytes);
  u64 padding = 0, end = record.files.front().header_offset;
  // The tables end where gen's first data file's padding starts: after the last name table.
  const SectionAt& last = a.sections.back();
  u64 tables_end =
      static_cast<u64>(last.table.name_table) + static_cast<u64>(last.table.count) * TableLayout::of({}).name_entry;
  padding += record.files.front().header_offset - tables_end;
  for (std::size_t i = 0; i < record.files.size(); ++i) {
    if (i > 0) padding += record.files[i].header_offset - end;
    end = record.files[i].header_offset + TableLayout::of({}).file_header + record.files[i].stored_size;
  }
  padding += record.size - end;
  u64 unreferenced = 0;
  for (const ByteRange& r : unreferenced_ranges(a)) unreferenced += r.end - r.begin;
  EXPECT_EQ(unreferenced, padding);
  u64 referenced = 0;
  for (const ByteRange& r : referenced_ranges(a)) referenced += r.end - r.begin;
  EXPECT_EQ(referenced + unreferenced, bytes.size());
  // The check compact's read-back makes refuses that padding, naming where it starts.
  auto check = check_no_unreferenced(a, 1);
  ASSERT_FALSE(check.ok());
  EXPECT_THAT(std::string(check.message()),
              HasSubstr(absl::StrFormat("offset 0x%x: %d unreferenced bytes", tables_end,
                                        record.files.front().header_offset - tables_end)));
}

}  // namespace pack_test
}  // namespace anvil::forge
