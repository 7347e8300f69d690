// The edges a new user meets, run as the binary: data-file names printed through one escaping (ls,
// verify, dump; text and JSON), `ls` of several archives, of sws archives with --objects and of files that
// are not archives, its JSON offsets and error entries; errors that name the file at fault (the archive,
// not the patch; the output, with the system's reason); `patch -o FILE` onto a read-only FILE; counts
// that agree with their nouns.
#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>
#include <absl/strings/str_split.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/error/en.h>

#include <cstdlib>
#include <cstring>
#include <filesystem>

#include "gen/forge.hpp"
#include "model/counted.hpp"
#include "model/forge/archive.hpp"
#include "reader/forge/archive_reader.hpp"
#include "platform/paths.hpp"
#include "platform/process.hpp"
#include "tests/test_support.hpp"

namespace anvil::cli_edges {
namespace {

using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

// The name's place in a name entry (model/forge/name_entry.hpp: raw_size, unknown_0, file_type, unknown_1).
constexpr std::size_t kNameInEntry = 4 + 12 + 4 + 24;

// A JSON document that must be valid UTF-8 as well as valid JSON.
rapidjson::Document strict_json(const std::string& text) {
  rapidjson::Document d;
  d.Parse<rapidjson::kParseValidateEncodingFlag>(text.c_str());
  EXPECT_FALSE(d.HasParseError()) << rapidjson::GetParseError_En(d.GetParseError()) << " at " << d.GetErrorOffset()
                                  << ": " << text.substr(0, 300);
  return d;
}

class CliEdges : public ::testing::Test {
 protected:
  // An archive of `game` made by `gen --forge` (5 data files, 1 Visual in each at least).
  std::string generate(const std::string& name, Game game, gen::ForgeRecord* record = nullptr) {
    std::string path = dir_.path(name);
    auto r = test::run_cli({"gen", "--forge", "--game", std::string(game_name(game)), "--datafiles", "5", "--visuals",
                            "6", "--seed", "7", "--block-size", "700", "-o", path});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    if (record) gen::generate_forge({game, 5, 6, 7, 700}, record);
    return path;
  }
  // The archive with the name of data file `index` replaced by `name` (at most 128 bytes).
  std::string renamed(const std::string& from, const std::string& to, std::size_t index, const std::string& name) {
    std::vector<u8> bytes = test::read_file(from);
    auto archive = forge::read_archive(bytes);
    EXPECT_TRUE(archive.ok()) << archive.status();
    u64 at = archive->files.at(index).name_entry_offset + kNameInEntry;
    std::fill_n(bytes.begin() + static_cast<std::ptrdiff_t>(at), 128, u8{0});
    std::memcpy(&bytes[at], name.data(), name.size());
    std::string path = dir_.path(to);
    test::write_file(path, bytes);
    return path;
  }
  // The archive with 16 bytes of data file `index`'s stored bytes spoiled: in the middle, so that a block
  // does not decompress, or near the start, in its block tables, so that even ls's skim does not read.
  std::string damaged(const std::string& from, const std::string& to, const gen::ForgeRecord& record, std::size_t index,
                      bool in_tables = false) {
    std::vector<u8> bytes = test::read_file(from);
    const auto& f = record.files.at(index);
    const u64 start = f.header_offset + 440 + (in_tables ? 24 : f.stored_size / 2);
    for (u64 at = start; at < start + 16; ++at) bytes[at] = 0xFF;
    std::string path = dir_.path(to);
    test::write_file(path, bytes);
    return path;
  }
  std::string write(const std::string& name, const std::string& text) {
    std::string path = dir_.path(name);
    test::write_file(path, std::span(reinterpret_cast<const u8*>(text.data()), text.size()));
    return path;
  }
  test::TempDir dir_;
};

TEST(Counted, NounsAgreeWithTheirCount) {
  EXPECT_EQ(counted(1, "entry"), "1 entry");
  EXPECT_EQ(counted(2, "entry"), "2 entries");
  EXPECT_EQ(counted(0u, "file"), "0 files");
  EXPECT_EQ(counted(1u, "data file"), "1 data file");
  EXPECT_EQ(counted(3, "near miss"), "3 near misses");
  EXPECT_EQ(counted(2, "key"), "2 keys");
  EXPECT_EQ(counted(-1, "entry"), "-1 entries");
}

TEST(PrintableName, ControlBytesBackslashAndHighBytes) {
  EXPECT_EQ(forge::printable_name("Level_01"), "Level_01");
  EXPECT_EQ(forge::printable_name("\x1b]0;t\x07\n\\\xff"), "\\x1b]0;t\\x07\\x0a\\x5c\\xff");
  EXPECT_EQ(forge::printable_name(std::string_view("a\0b", 3)), "a\\x00b");
}

// A name with an escape sequence, a line break, a backslash and a byte that is not UTF-8 is printed the same
// escaped way by ls (text and JSON), verify and dump, and never reaches the terminal as it is.
TEST_F(CliEdges, NamesArePrintedThroughOneEscaping) {
  const std::string name = "\x1b]0;owned\x07\x1b[31m\nrow\\\xff";
  const std::string shown = "\\x1b]0;owned\\x07\\x1b[31m\\x0arow\\x5c\\xff";
  std::string path = renamed(generate("a.forge", Game::ac2), "names.forge", 1, name);

  auto ls = test::run_cli({"ls", path});
  ASSERT_EQ(ls.exit_code, 0) << ls.err;
  std::vector<std::string> lines = absl::StrSplit(ls.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 6u) << ls.out;  // one row per data file: the line break did not split one
  EXPECT_THAT(lines[1], HasSubstr("  " + shown + "  "));
  for (char c : ls.out) EXPECT_TRUE(c == '\n' || (c >= 0x20 && c < 0x7f)) << static_cast<int>(c);

  auto json = test::run_cli({"ls", path, "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  rapidjson::Document doc = strict_json(json.out);
  ASSERT_TRUE(doc.IsObject());
  EXPECT_EQ(doc["datafiles"][1]["name"].GetString(), shown);

  auto verify = test::run_cli({"verify", path, "-q"});
  EXPECT_THAT(verify.out, HasSubstr(path + ": " + shown + " (0x"));
  auto dump = test::run_cli({"dump", path, "-q"});
  ASSERT_EQ(dump.exit_code, 0) << dump.err;
  rapidjson::Document dumped = strict_json(dump.out);
  EXPECT_TRUE(dumped["datafiles"].HasMember(shown.c_str()));
}

// A path that is not UTF-8 is spelled in JSON as a data-file name is, so that the document stays JSON.
TEST_F(CliEdges, LsJsonOfAPathThatIsNotUtf8) {
  SKIP_ON_WINDOWS("a Windows file name is UTF-16: no name there is bytes that are not UTF-8");
  std::string path = dir_.path("\xff\xfe.forge");
  std::filesystem::copy_file(generate("a.forge", Game::ac2), path);
  auto r = test::run_cli({"ls", path, "--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  rapidjson::Document doc = strict_json(r.out);
  EXPECT_EQ(doc["archive"].GetString(), forge::printable_name(path));
}

// `--game` defaults to auto, as for every command: an sws archive's objects are carved as sws.
TEST_F(CliEdges, LsObjectsOfAnSwsArchive) {
  gen::ForgeRecord record;
  std::string path = generate("s.forge", Game::sws, &record);
  for (std::vector<std::string> game : {std::vector<std::string>{}, {"--game", "auto"}, {"--game", "sws"}}) {
    std::vector<std::string> args{"ls", path, "--objects", "-q"};
    args.insert(args.end(), game.begin(), game.end());
    auto r = test::run_cli(args);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<std::string> lines = absl::StrSplit(r.out, '\n', absl::SkipEmpty());
    ASSERT_EQ(lines.size(), record.files.size() + 1);
    for (std::size_t i = 0; i < record.files.size(); ++i)
      EXPECT_THAT(lines[i], HasSubstr(absl::StrFormat("Visual=%d", record.files[i].visuals))) << lines[i];
  }
  EXPECT_EQ(test::run_cli({"ls", path, "--objects"}).err, "") << "notes with -v only";
  auto noted = test::run_cli({"ls", path, "--objects", "-v"});
  EXPECT_EQ(noted.err, "anvilrt: " + path + ": game auto: picked sws\n");
  auto bad = test::run_cli({"ls", path, "--game", "ac3"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_THAT(bad.err, HasSubstr("--game must be"));
}

// Several archives: each after a line naming it; in JSON an array of their documents, with each data file's
// offsets, an unreadable data file as an entry with "error", a file that is not an archive or is missing as
// one.
TEST_F(CliEdges, LsSeveralArchivesOffsetsAndErrors) {
  gen::ForgeRecord record;
  std::string good = generate("a.forge", Game::ac2, &record);
  std::string bad = damaged(good, "bad.forge", record, 1, true);
  std::string text = write("notes.txt", "not an archive\n");
  std::string missing = dir_.path("missing.forge");

  auto r = test::run_cli({"ls", text, good, bad, missing, "-q"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.out, StartsWith(good + ":\n   0  "));
  EXPECT_THAT(r.out, HasSubstr("\n\n" + bad + ":\n   0  "));
  EXPECT_THAT(r.out, Not(HasSubstr(text + ":")));
  std::vector<std::string> errors = absl::StrSplit(r.err, '\n', absl::SkipEmpty());
  ASSERT_EQ(errors.size(), 3u) << r.err;
  EXPECT_EQ(errors[0], "anvilrt: " + text + ": not a .forge archive (it does not begin with \"scimitar\")");
  EXPECT_THAT(errors[1], StartsWith("anvilrt: " + bad + ": "));
  EXPECT_THAT(errors[1], HasSubstr(absl::StrFormat("data file 1 '%s'", record.files[1].name)));
  EXPECT_EQ(errors[2], "anvilrt: " + missing + ": no such file or folder");

  auto json = test::run_cli({"ls", good, text, bad, missing, "--json", "-q"});
  EXPECT_EQ(json.exit_code, 2);
  rapidjson::Document doc = strict_json(json.out);
  ASSERT_TRUE(doc.IsArray());
  ASSERT_EQ(doc.Size(), 4u);
  EXPECT_STREQ(doc[3]["error"].GetString(), "no such file or folder");
  EXPECT_EQ(doc[0]["archive"].GetString(), good);
  EXPECT_EQ(doc[1]["archive"].GetString(), text);
  EXPECT_STREQ(doc[1]["error"].GetString(), "not a .forge archive (it does not begin with \"scimitar\")");
  EXPECT_FALSE(doc[1].HasMember("datafiles"));
  for (rapidjson::SizeType a : {0u, 2u}) {
    const auto& files = doc[a]["datafiles"];
    ASSERT_EQ(files.Size(), record.files.size());
    for (rapidjson::SizeType i = 0; i < files.Size(); ++i) {
      const auto& f = record.files[i];
      EXPECT_EQ(files[i]["offset"].GetUint64(), f.header_offset);
      EXPECT_EQ(files[i]["stored_offset"].GetUint64(), f.header_offset + 440);
      EXPECT_EQ(files[i]["size"].GetUint64(), f.stored_size);
      EXPECT_EQ(files[i]["name"].GetString(), f.name);
      const bool unreadable = a == 2 && i == 1;
      EXPECT_EQ(files[i].HasMember("error"), unreadable);
      EXPECT_EQ(files[i].HasMember("compression"), !unreadable);
      if (unreadable) {
        EXPECT_THAT(files[i]["error"].GetString(), HasSubstr("data file 1"));
      }
    }
  }

  // One archive: one document, as always.
  auto one = test::run_cli({"ls", bad, "--json", "-q"});
  EXPECT_EQ(one.exit_code, 2);
  rapidjson::Document single = strict_json(one.out);
  ASSERT_TRUE(single.IsObject());
  EXPECT_TRUE(single["datafiles"][1].HasMember("error"));
  auto alone = test::run_cli({"ls", text});
  EXPECT_EQ(alone.exit_code, 2);
  EXPECT_EQ(alone.out, "");
  EXPECT_EQ(alone.err, "anvilrt: " + text + ": not a .forge archive (it does not begin with \"scimitar\")\n");
}

// A section count of -1 is printed as -1.
TEST_F(CliEdges, NegativeSectionCountIsPrintedSigned) {
  std::string good = generate("a.forge", Game::ac2);
  std::vector<u8> bytes = test::read_file(good);
  auto archive = forge::read_archive(bytes);
  ASSERT_TRUE(archive.ok());
  const u64 at = archive->sections.at(0).offset;  // the section starts with its i32 count
  const i32 minus_one = -1;
  std::memcpy(&bytes[at], &minus_one, sizeof minus_one);
  std::string path = dir_.path("negative.forge");
  test::write_file(path, bytes);
  auto r = test::run_cli({"ls", path});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("count must not be negative (found -1)"));
}

// A data file that does not read is the archive's fault: named by the archive, with the operation that
// needed it, whether the operation names the data file or looks a key up in all of them.
TEST_F(CliEdges, PatchBlamesTheArchiveForItsDamage) {
  gen::ForgeRecord record;
  std::string bad = damaged(generate("a.forge", Game::ac2, &record), "bad.forge", record, 0);
  const std::string name = record.files[0].name;
  std::string named = write("named.json", absl::StrCat(R"([{"op":"test","path":"/datafiles/)", name,
                                                       R"(/objects/0x0000000000000001/id","value":"x"}])"));
  std::string keyed =
      write("keyed.json", R"([{"op":"test","path":"/objects/0x0000000000000001/id","value":"0x0000000000000001"}])");
  for (const std::string& patch : {named, keyed}) {
    auto r = test::run_cli({"patch", bad, patch, "-o", dir_.path("out.forge"), "-q"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_THAT(r.err, StartsWith("anvilrt: " + bad + ": ")) << r.err;
    EXPECT_THAT(r.err, HasSubstr(": data file 0 '" + name + "'"));
    EXPECT_THAT(r.err, HasSubstr("(needed by op 0 (/"));
    EXPECT_THAT(r.err, testing::EndsWith(" of " + patch + ")\n"));
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1);
    EXPECT_FALSE(std::filesystem::exists(dir_.path("out.forge")));
  }
}

// A write that fails names the output and says why; the input is not blamed.
TEST_F(CliEdges, OutputErrorsNameTheOutputWithTheReason) {
  SKIP_ON_WINDOWS("/dev/full, a device that is always full, is Linux's (Windows has no full device)");
  if (!std::filesystem::exists("/dev/full")) GTEST_SKIP() << "no /dev/full";
  gen::ForgeRecord record;
  std::string archive = generate("a.forge", Game::ac2, &record);
  const std::string full = "anvilrt: /dev/full: cannot write: " + std::string(std::strerror(ENOSPC));

  auto dump = test::run_cli({"dump", archive, "-o", "/dev/full", "-q"});
  EXPECT_EQ(dump.exit_code, 2);
  EXPECT_EQ(dump.err, full + "\n");
  auto level = test::run_cli({"dump", test::corpus("ac2/lod_selector_slots.bin"), "-o", "/dev/full", "-q"});
  EXPECT_EQ(level.exit_code, 2);
  EXPECT_EQ(level.err, full + "\n");

  std::string patch = write("p.json", R"([{"op":"test","path":"/game","value":"ac2"}])");
  auto patched = test::run_cli({"patch", archive, patch, "-o", "/dev/full", "-q"});
  EXPECT_EQ(patched.exit_code, 2);
  EXPECT_THAT(patched.err, StartsWith(full));
  EXPECT_EQ(std::count(patched.err.begin(), patched.err.end(), '\n'), 1) << patched.err;

  // Standard output on a full disk: every command says so once, and exits 2.
  const std::string err = dir_.path("err.txt");
  for (std::string args : {"ls " + archive, "ls --json " + archive, "verify -q " + archive, "dump -q " + archive}) {
    std::vector<std::string> argv = {ANVILRT_BINARY};
    for (absl::string_view word : absl::StrSplit(args, ' ')) argv.emplace_back(word);
    EXPECT_EQ(platform::run_program(argv, "/dev/full", err), 2) << args;
    EXPECT_EQ(test::read_text(err),
              "anvilrt: standard output: cannot write: " + std::string(std::strerror(ENOSPC)) + "\n")
        << args;
  }
}

// -o naming FILE itself (by another path too) replaces FILE: a read-only one is refused unless --force,
// as with --in-place.
TEST_F(CliEdges, PatchOntoItsOwnReadOnlyInput) {
  std::string archive = generate("a.forge", Game::ac2);
  std::string patch = write("p.json", R"([{"op":"test","path":"/game","value":"ac2"}])");
  const std::vector<u8> original = test::read_file(archive);
  std::filesystem::permissions(platform::path_of(archive), std::filesystem::perms(0444));
  for (const std::string& out : {archive, dir_.path("./a.forge")}) {
    auto r = test::run_cli({"patch", archive, patch, "-o", out, "-q"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "anvilrt: " + out + ": the file is read-only (--force replaces it all the same)\n");
    EXPECT_EQ(test::read_file(archive), original);
  }
  auto forced = test::run_cli({"patch", archive, patch, "-o", archive, "--force", "-q"});
  EXPECT_EQ(forced.exit_code, 0) << forced.err;
  EXPECT_EQ(std::filesystem::status(platform::path_of(archive)).permissions() & std::filesystem::perms::mask,
            std::filesystem::perms(0444));
  // Another file than FILE: --force does not go with it.
  auto other = test::run_cli({"patch", archive, patch, "-o", dir_.path("b.forge"), "--force", "-q"});
  EXPECT_EQ(other.exit_code, 2);
  EXPECT_EQ(other.err, "anvilrt: --force only goes with --in-place (or -o naming FILE itself)\n");
}

// Counts of one take the singular: patch's dry run, verify's summary, a skipped file of a folder walk.
TEST_F(CliEdges, CountsOfOneAreSingular) {
  std::string level = test::corpus("ac2/lod_selector_slots.bin");
  std::string patch = write("p.json", R"([{"op":"test","path":"/game","value":"ac2"}])");
  auto dry = test::run_cli({"patch", level, patch, "--dry-run", "--game", "ac2", "-q"});
  ASSERT_EQ(dry.exit_code, 0) << dry.err;
  EXPECT_THAT(dry.out, HasSubstr("dry run: 0 objects would change; nothing written"));

  std::string folder = dir_.path("walk");
  std::filesystem::create_directory(folder);
  std::filesystem::copy_file(level, folder + "/level.bin");
  test::write_file(folder + "/readme.txt", std::vector<u8>(64, 'x'));
  auto verify = test::run_cli({"verify", folder, "--game", "ac2"});
  ASSERT_EQ(verify.exit_code, 0) << verify.err;
  EXPECT_THAT(verify.out, HasSubstr(", 1 object carved, "));
  EXPECT_THAT(verify.out, HasSubstr("verified 1 file: 1 identical, 0 differ, 0 missing, 0 unreadable"));
  EXPECT_THAT(verify.err, HasSubstr("anvilrt: skipped 1 file of the folders that carve no object and have no "
                                    "level-file extension (--all takes it)"));
}

}  // namespace
}  // namespace anvil::cli_edges
