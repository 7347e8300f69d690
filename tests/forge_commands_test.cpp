// dump, patch, verify and stats of `.forge` archives and decompressed data files, run as the binary on
// generated archives: the datafiles document equals the dumps of the extracted data files, a patch of an
// extracted data file and of the archive give the same data file after `extract`, addressing by unique
// key, by /datafiles pointer and by bulk operation over all and narrowed data files, the dry-run report,
// verify (with --recompress) and stats lines.
#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>
#include <absl/strings/str_split.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <filesystem>
#include <map>

#include "gen/forge.hpp"
#include "model/counted.hpp"
#include "platform/paths.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

using ::testing::HasSubstr;
using ::testing::StartsWith;

// The first material replacement field of a data file's objects: its key and pointer inside the object.
struct ReplacementField {
  std::string key, pointer, value;
};
std::optional<ReplacementField> first_replacement(const rapidjson::Value& objects) {
  for (auto& o : objects.GetObject()) {
    const auto& v = o.value;
    if (!v.HasMember("instance") || v["instance"].IsNull() || !v["instance"].HasMember("slots")) continue;
    const auto& slots = v["instance"]["slots"];
    for (rapidjson::SizeType s = 0; s < slots.Size(); ++s)
      if (!slots[s].IsNull() && slots[s].HasMember("materials") && slots[s]["materials"].Size() > 0)
        return ReplacementField{o.name.GetString(), absl::StrCat("/instance/slots/", s, "/materials/0/replacement"),
                                slots[s]["materials"][0]["replacement"].GetString()};
  }
  return std::nullopt;
}

class ForgeCommands : public ::testing::Test {
 protected:
  void SetUp() override {
    archive_ = dir_.path("a.forge");
    auto r = test::run_cli({"gen", "--forge", "--game", "ac2", "--datafiles", "5", "--visuals", "6", "--seed", "7",
                            "--block-size", "700", "-o", archive_});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    gen::generate_forge({Game::ac2, 5, 6, 7, 700}, &record_);
    ASSERT_EQ(test::read_file(archive_).size(), record_.size);
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
  // The data file's decompressed bytes as `extract` writes them from `archive`.
  std::vector<u8> extracted(const std::string& archive, const std::string& name) {
    std::string out = dir_.path("x" + std::to_string(count_++));
    auto r = test::run_cli({"extract", archive, name, "-o", out});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    for (auto& e : std::filesystem::directory_iterator(out))
      if (e.path().filename() != "forge.json") return test::read_file(e.path().string());
    ADD_FAILURE() << "extract wrote nothing";
    return {};
  }
  // A key held by exactly one data file, with a material replacement: its data file's index and field.
  std::pair<std::size_t, ReplacementField> unique_field() {
    std::map<std::string, int> holders;
    std::vector<rapidjson::Document> docs;
    for (const auto& f : record_.files) {
      docs.push_back(test::parse_json(test::run_cli({"dump", write("d.data", f.decoded), "--game", "ac2", "-q"}).out));
      for (auto& o : docs.back()["objects"].GetObject()) ++holders[o.name.GetString()];
    }
    for (std::size_t i = 0; i < docs.size(); ++i)
      if (auto f = first_replacement(docs[i]["objects"]); f && holders[f->key] == 1) return {i, *f};
    ADD_FAILURE() << "no key unique in the archive with a material";
    return {};
  }

  test::TempDir dir_;
  std::string archive_;
  gen::ForgeRecord record_;
  int count_ = 0;
};

TEST_F(ForgeCommands, DumpOfTheArchiveIsTheDumpsOfItsDataFiles) {
  // What was read is said with -v only (quiet when all is well).
  EXPECT_EQ(test::run_cli({"dump", archive_}).err, "");
  auto r = test::run_cli({"dump", "-v", archive_});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "anvilrt: " + archive_ + ": a forge archive\nanvilrt: " + archive_ + ": game auto: picked ac2\n");
  rapidjson::Document doc = test::parse_json(r.out);
  EXPECT_STREQ(doc["format"].GetString(), "anvilrt/1");
  EXPECT_STREQ(doc["game"].GetString(), "ac2");
  ASSERT_EQ(doc.MemberCount(), 3u);
  ASSERT_EQ(doc["datafiles"].MemberCount(), record_.files.size());
  std::size_t i = 0;
  for (auto& m : doc["datafiles"].GetObject()) {
    const auto& f = record_.files[i++];
    EXPECT_EQ(m.name.GetString(), f.name);
    // The member is the document of the data file alone, without "format" and "game".
    auto alone = test::run_cli({"dump", "-v", write("alone.data", f.decoded), "--game", "ac2"});
    ASSERT_EQ(alone.exit_code, 0) << alone.err;
    EXPECT_EQ(alone.err, absl::StrFormat("anvilrt: %s: a decompressed data file (%s)\n", dir_.path("alone.data"),
                                         counted(f.entries, "entry")));
    rapidjson::Document single = test::parse_json(alone.out);
    EXPECT_EQ(m.value.MemberCount(), 2u);
    EXPECT_EQ(m.value["size"], single["size"]);
    EXPECT_EQ(m.value["objects"], single["objects"]);
    EXPECT_EQ(m.value["objects"].MemberCount(), f.visuals);
  }
  // Selected by name and by id; --quiet says nothing.
  auto one = test::run_cli({"dump", archive_, record_.files[2].name, "-q"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  EXPECT_EQ(one.err, "");
  rapidjson::Document selected = test::parse_json(one.out);
  ASSERT_EQ(selected["datafiles"].MemberCount(), 1u);
  EXPECT_TRUE(selected["datafiles"].HasMember(record_.files[2].name.c_str()));
  auto by_id = test::run_cli({"dump", archive_, absl::StrFormat("0x%08x", record_.files[2].file_id), "-q"});
  EXPECT_EQ(by_id.out, one.out);
  auto full = test::run_cli({"dump", archive_, "--full", "-q"});
  EXPECT_EQ(full.exit_code, 2);
  EXPECT_THAT(full.err, HasSubstr("--full is for level and data files"));
}

TEST_F(ForgeCommands, PatchOfTheArchiveEqualsPatchOfTheExtractedDataFile) {
  auto [index, field] = unique_field();
  const auto& f = record_.files[index];
  std::string patch =
      write("p.json", absl::StrCat(R"([{"op":"test","path":"/objects/)", field.key, field.pointer, R"(","value":")",
                                   field.value, R"("},{"op":"replace","path":"/objects/)", field.key, field.pointer,
                                   R"(","value":"0x0123456789abcdef"}])"));
  std::string data = write("f.data", f.decoded);
  auto on_data = test::run_cli({"patch", data, patch, "-o", dir_.path("f2.data"), "--game", "ac2", "-q"});
  ASSERT_EQ(on_data.exit_code, 0) << on_data.err;
  std::string out = dir_.path("b.forge");
  auto on_archive = test::run_cli({"patch", archive_, patch, "-o", out, "-q"});
  ASSERT_EQ(on_archive.exit_code, 0) << on_archive.err;
  EXPECT_EQ(extracted(out, f.name), test::read_file(dir_.path("f2.data")));
  EXPECT_NE(test::read_file(dir_.path("f2.data")), f.decoded);
  for (const auto& other : record_.files)
    if (other.name != f.name) {
      EXPECT_EQ(extracted(out, other.name), other.decoded) << other.name;
    }
  // The same through its /datafiles pointer.
  std::string by_name = write("q.json", absl::StrCat(R"([{"op":"replace","path":"/datafiles/)", f.name, "/objects/",
                                                     field.key, field.pointer, R"(","value":"0x0123456789abcdef"}])"));
  std::string out2 = dir_.path("c.forge");
  auto r = test::run_cli({"patch", archive_, by_name, "-o", out2, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(out2), test::read_file(out));
  auto verify = test::run_cli({"verify", out2, "-q"});
  EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;
}

// --in-place of an archive: a read-only one is refused and left as it was unless --force, which replaces
// it keeping its mode; either way the result equals -o's.
TEST_F(ForgeCommands, InPlaceOfAReadOnlyArchiveNeedsForce) {
  auto [index, field] = unique_field();
  (void)index;
  std::string patch = write("p.json", absl::StrCat(R"([{"op":"replace","path":"/objects/)", field.key, field.pointer,
                                                   R"(","value":"0x0123456789abcdef"}])"));
  std::string expected = dir_.path("expected.forge");
  ASSERT_EQ(test::run_cli({"patch", archive_, patch, "-o", expected, "-q"}).exit_code, 0);
  std::string target = dir_.path("target.forge");
  const std::vector<u8> original = test::read_file(archive_);
  test::write_file(target, original);
  std::filesystem::permissions(platform::path_of(target), std::filesystem::perms(0444));
  auto refused = test::run_cli({"patch", target, patch, "--in-place", "-q"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(refused.err, "anvilrt: " + target + ": the file is read-only (--force replaces it all the same)\n");
  EXPECT_EQ(test::read_file(target), original);
  auto forced = test::run_cli({"patch", target, patch, "--in-place", "--force", "-q"});
  ASSERT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_EQ(test::read_file(target), test::read_file(expected));
  EXPECT_EQ(std::filesystem::status(platform::path_of(target)).permissions() & std::filesystem::perms::mask,
            std::filesystem::perms(0444));
  // A writable archive is replaced without --force.
  std::filesystem::permissions(platform::path_of(target), std::filesystem::perms(0644));
  test::write_file(target, original);
  ASSERT_EQ(test::run_cli({"patch", target, patch, "--in-place", "-q"}).exit_code, 0);
  EXPECT_EQ(test::read_file(target), test::read_file(expected));
}

TEST_F(ForgeCommands, DryRunReportsPerDataFile) {
  auto [index, field] = unique_field();
  const auto& f = record_.files[index];
  std::string patch = write(
      "p.json", absl::StrCat(R"([{"op":"test","path":"/game","value":"ac2"},)", R"({"op":"replace","path":"/objects/)",
                             field.key, field.pointer, R"(","value":"0x0123456789abcdef"}])"));
  auto r = test::run_cli({"patch", archive_, patch, "--dry-run", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, absl::StrFormat("op 0 test /game: \"ac2\" (passed)\n"
                                   "data file %s: 1 object would change\n"
                                   "  op 1 replace /datafiles/%s/objects/%s%s: \"%s\" -> \"0x0123456789abcdef\"\n"
                                   "dry run: 1 object would change in 1 of 5 data files; nothing written\n",
                                   f.name, f.name, field.key, field.pointer, field.value));
}

TEST_F(ForgeCommands, BulkOperationsOverAllAndNamedDataFiles) {
  auto [index, field] = unique_field();
  const auto& f = record_.files[index];
  std::string swap = absl::StrCat(R"({"op":"swap_material","from":")", field.value, R"(","to":"0x0123456789abcdef")");
  std::string all = write("all.json", "[" + swap + "}]");
  auto r = test::run_cli({"patch", archive_, all, "--dry-run", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(absl::StrFormat("data file %s: ", f.name)));
  // Narrowed to another data file that lacks the material: nothing matched, exit 1, nothing written.
  for (const auto& other : record_.files) {
    if (other.name == f.name) continue;
    std::string narrowed = write("n.json", "[" + swap + R"(,"datafiles":[")" + other.name + R"("]}])");
    auto dry = test::run_cli({"patch", archive_, narrowed, "--dry-run", "-q"});
    if (dry.exit_code == 0) continue;  // this one holds the material too
    EXPECT_EQ(dry.exit_code, 1);
    EXPECT_EQ(dry.err, absl::StrFormat("anvilrt: %s: op 0 (swap_material): matched no material info with replacement "
                                       "%s (data file %s)\n",
                                       narrowed, field.value, other.name));
    std::string out = dir_.path("n.forge");
    EXPECT_EQ(test::run_cli({"patch", archive_, narrowed, "-o", out, "-q"}).exit_code, 1);
    EXPECT_FALSE(std::filesystem::exists(out));
    break;
  }
  // Over every data file, written: the data file that holds the material changed as the extracted one.
  std::string out = dir_.path("all.forge");
  ASSERT_EQ(test::run_cli({"patch", archive_, all, "-o", out, "-q"}).exit_code, 0);
  std::string data = write("f.data", f.decoded);
  ASSERT_EQ(test::run_cli({"patch", data, all, "-o", dir_.path("f2.data"), "--game", "ac2", "-q"}).exit_code, 0);
  EXPECT_EQ(extracted(out, f.name), test::read_file(dir_.path("f2.data")));
}

TEST_F(ForgeCommands, AKeyInSeveralDataFilesIsRefused) {
  // An archive where two data files hold the same key: an object of the second given the id of one of
  // the first, through its /datafiles pointer.
  auto first = test::parse_json(test::run_cli({"dump", archive_, record_.files[0].name, "-q"}).out);
  auto second = test::parse_json(test::run_cli({"dump", archive_, record_.files[1].name, "-q"}).out);
  std::string key = first["datafiles"][record_.files[0].name.c_str()]["objects"].MemberBegin()->name.GetString();
  std::string other = second["datafiles"][record_.files[1].name.c_str()]["objects"].MemberBegin()->name.GetString();
  std::string twice = dir_.path("twice.forge");
  std::string rename =
      write("rename.json", absl::StrCat(R"([{"op":"replace","path":"/datafiles/)", record_.files[1].name, "/objects/",
                                        other, R"(/id","value":")", key, R"("}])"));
  auto r = test::run_cli({"patch", archive_, rename, "-o", twice, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string patch = write("amb.json", R"([{"op":"replace","path":"/objects/)" + key + R"(/managed","value":1}])");
  auto refused = test::run_cli({"patch", twice, patch, "--dry-run", "-q"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_EQ(refused.err, absl::StrFormat("anvilrt: %s: op 0 (/objects/%s/managed): the object key \"%s\" is in several "
                                         "data files (%s, %s): address one as /datafiles/NAME/objects/%s\n",
                                         patch, key, key, record_.files[0].name, record_.files[1].name, key));
  std::string one = write("one.json", absl::StrCat(R"([{"op":"replace","path":"/datafiles/)", record_.files[1].name,
                                                   "/objects/", key, R"(/managed","value":1}])"));
  auto dry = test::run_cli({"patch", twice, one, "--dry-run", "-q"});
  EXPECT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_THAT(dry.out, HasSubstr(absl::StrFormat("data file %s: 1 object would change", record_.files[1].name)));
}

TEST_F(ForgeCommands, VerifyReportsTablesDataFilesAndRecompression) {
  auto r = test::run_cli({"verify", archive_, "--recompress", "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  std::vector<std::string> lines = absl::StrSplit(r.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), record_.files.size() + 3);
  EXPECT_EQ(lines[0], absl::StrFormat("%s: forge archive, %d bytes, 5 data files, ac2: tables identical", archive_,
                                      record_.size));
  for (std::size_t i = 0; i < record_.files.size(); ++i) {
    const auto& f = record_.files[i];
    EXPECT_THAT(lines[1 + i], StartsWith(absl::StrFormat("%s: %s (0x%08x): %d bytes stored (%s), %d decompressed, %s, "
                                                         "%d objects carved",
                                                         archive_, f.name, f.file_id, f.stored_size,
                                                         forge::compression_name(f.compression), f.decoded.size(),
                                                         counted(f.entries, "entry"), f.visuals)));
    EXPECT_THAT(lines[1 + i], testing::EndsWith(": identical"));
  }
  // The generator compresses with the -999 compressors the writer uses: every block comes out the same.
  const std::string& last = lines[record_.files.size() + 1];
  EXPECT_THAT(last,
              StartsWith(archive_ + ": archive version 25, data-file layout 1, checksum rule adler32-0/stored ("));
  {
    std::vector<std::string> words = absl::StrSplit(last.substr(last.find('(') + 1), ' ');
    EXPECT_EQ(words[0], words[2]) << last;  // "(N of N blocks)": every block matches the rule
  }
  EXPECT_THAT(last, HasSubstr(" blocks); recompressed lzo1x: "));
  for (std::string algorithm : {"lzo1x", "lzo2a"}) {
    auto at = last.find("recompressed " + algorithm + ": ");
    ASSERT_NE(at, std::string::npos) << last;
    std::vector<std::string> words = absl::StrSplit(last.substr(at), ' ');
    EXPECT_EQ(words[2], words[4]) << last;  // "recompressed lzo1x: N of N blocks identical"
  }
  EXPECT_THAT(last, testing::EndsWith(": 5 of 5 data files identical"));
  EXPECT_EQ(lines.back(), "verified 1 file: 1 identical, 0 differ, 0 missing, 0 unreadable");

  // A data file whose block does not decompress: that data file does not read, the others do.
  std::vector<u8> bytes = test::read_file(archive_);
  const auto& f = record_.files[0];
  for (u64 at = f.header_offset + 440 + f.stored_size / 2; at < f.header_offset + 440 + f.stored_size / 2 + 16; ++at)
    bytes[at] ^= 0xff;
  std::string broken = write("broken.forge", bytes);
  auto b = test::run_cli({"verify", broken, "-q"});
  EXPECT_NE(b.exit_code, 0);
  std::vector<std::string> blines = absl::StrSplit(b.out, '\n', absl::SkipEmpty());
  ASSERT_GE(blines.size(), 3u) << b.out << b.err;
  EXPECT_THAT(blines[1], testing::AnyOf(HasSubstr("DOES NOT READ"), HasSubstr("DIFFERS")));
}

TEST_F(ForgeCommands, VerifyOfADataFileAndStatsOfTheArchive) {
  std::string data = write("f.data", record_.files[0].decoded);
  auto v = test::run_cli({"verify", data, "--game", "ac2", "-q"});
  ASSERT_EQ(v.exit_code, 0) << v.out << v.err;
  EXPECT_THAT(v.out, StartsWith(absl::StrFormat("%s: ac2 data file: %d bytes stored (plain), %d decompressed, %d "
                                                "entries, %d objects carved",
                                                data, record_.files[0].decoded.size(), record_.files[0].decoded.size(),
                                                record_.files[0].entries, record_.files[0].visuals)));

  auto s = test::run_cli({"stats", archive_, "--json", "-q"});
  ASSERT_EQ(s.exit_code, 0) << s.err;
  rapidjson::Document doc = test::parse_json(s.out);
  u64 visuals = 0, stored = 0, decompressed = 0;
  std::map<std::string, u64> by_compression;
  for (const auto& f : record_.files) {
    visuals += f.visuals;
    stored += f.stored_size;
    decompressed += f.decoded.size();
    ++by_compression[std::string(forge::compression_name(f.compression))];
  }
  EXPECT_EQ(doc["dialects"]["ac2"]["objects"]["Visual"].GetUint64(), visuals);
  EXPECT_EQ(doc["dialects"]["ac2"]["files"].GetUint64(), record_.files.size());
  const auto& a = doc["archives"][archive_.c_str()];
  EXPECT_EQ(a["datafiles"].GetUint64(), record_.files.size());
  EXPECT_EQ(a["stored_bytes"].GetUint64(), stored);
  EXPECT_EQ(a["decompressed_bytes"].GetUint64(), decompressed);
  for (const auto& [name, n] : by_compression) EXPECT_EQ(a["compression"][name.c_str()].GetUint64(), n) << name;
  auto text = test::run_cli({"stats", archive_, "-q"});
  EXPECT_THAT(text.out, HasSubstr(absl::StrFormat("archive %s: 5 data files", archive_)));
  EXPECT_THAT(text.out, HasSubstr("checksum rule (blocks checked): adler32-0/stored"));
}

}  // namespace
}  // namespace anvil
