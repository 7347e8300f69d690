// `anvilrt patch`: every error kind with its exact exit code and one-line message, and that no output
// file is left; --in-place, --dry-run, a patch applied twice, and a large file where only the changed
// fields' bytes differ.
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>
#include <random>

#include "reader/level.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

namespace fs = std::filesystem;

class PatchCli : public ::testing::Test {
 protected:
  std::string patch_file(const std::string& text) {
    std::string path = dir_.path("patch" + std::to_string(count_++) + ".json");
    test::write_file(path, {reinterpret_cast<const u8*>(text.data()), text.size()});
    return path;
  }
  // Runs the patch on `file` to OUT; returns the result, OUT's path in `out`.
  test::CliResult run(const std::string& file, const std::string& game, const std::string& patch, std::string& out,
                      std::vector<std::string> extra = {}) {
    out = dir_.path("out" + std::to_string(count_++) + ".bin");
    std::vector<std::string> args = {"patch", file, patch, "-o", out, "--game", game};
    args.insert(args.end(), extra.begin(), extra.end());
    return test::run_cli(args);
  }

  // Applies a patch that must fail: the exit code, the whole stderr line, and no output file (nor any
  // temporary beside it).
  // A reason about the operation's own path, as an error says it: without that path, which the error
  // names already ("op 0 (PATH): reason").
  static std::string about(const std::string& path, const std::string& reason) {
    return reason.rfind(path + ": ", 0) == 0 ? reason.substr(path.size() + 2) : reason;
  }

  void expect_error(const std::string& file, const std::string& game, const std::string& text, int exit_code,
                    const std::string& message_after_path) {
    std::string patch = patch_file(text);
    std::string out;
    auto r = run(file, game, patch, out);
    EXPECT_EQ(r.exit_code, exit_code) << text << "\n" << r.err;
    EXPECT_EQ(r.err, "anvilrt: " + patch + ": " + message_after_path + "\n") << text;
    EXPECT_TRUE(r.out.empty());
    EXPECT_FALSE(fs::exists(out)) << text;
    for (auto& entry : fs::directory_iterator(fs::path(out).parent_path()))
      EXPECT_EQ(entry.path().string().find(".anvilrt-tmp-"), std::string::npos) << entry.path();
  }

  test::TempDir dir_;
  int count_ = 0;
};

const std::string kSlotsLevel = test::corpus("ac2/lod_selector_slots.bin");
const std::string kObj = "/objects/0x00000000000004d2";
const std::string kRepl = kObj + "/instance/slots/1/materials/1/replacement";

TEST_F(PatchCli, MalformedPatches) {
  expect_error(kSlotsLevel, "ac2", "[{\"op\":\"test\"", 2,
               "line 1, column 14: not JSON: missing a comma or '}' after an object member");
  expect_error(kSlotsLevel, "ac2", "[\n  {\"op\": \"test\",\n   \"path\": \"/size\" \"value\": 807}\n]", 2,
               "line 3, column 20: not JSON: missing a comma or '}' after an object member");
  expect_error(kSlotsLevel, "ac2", "[\n {\"op\":\"test\",\"path\":\"/size\",\"value\":0E+222}]", 2,
               "line 2, column 38: a number that the JSON parser would misread");
  expect_error(kSlotsLevel, "ac2", "{\"op\":\"test\"}", 2,
               "a patch must be a JSON array of operations (found an object)");
  expect_error(kSlotsLevel, "ac2", "[7]", 2, "op 0 (): an operation must be a JSON object (found a number)");
  expect_error(kSlotsLevel, "ac2", "[{\"op\":7,\"path\":\"/size\"}]", 2,
               "op 0 (): \"op\" must be a string (found a number)");
  expect_error(kSlotsLevel, "ac2", "[{\"op\":\"replace\",\"path\":[],\"value\":1}]", 2,
               "op 0 (replace): \"path\" must be a JSON pointer string (found an array)");
  expect_error(kSlotsLevel, "ac2", "[{\"op\":\"copy\",\"from\":null,\"path\":\"" + kRepl + "\"}]", 2,
               "op 0 (" + kRepl + "): \"from\" must be a JSON pointer string (found null)");
  expect_error(kSlotsLevel, "ac2", "[{\"path\":\"/size\",\"value\":1}]", 2, "op 0 (): missing \"op\" (a string)");
  expect_error(kSlotsLevel, "ac2", "[{\"op\":\"frobnicate\",\"path\":\"/size\"}]", 2,
               "op 0 (frobnicate): unknown op \"frobnicate\" (test, replace, add, remove, move, copy, swap_material, "
               "transform, set_switch_distance, scale_switch_distance, "
               "duplicate_instance, remove_instance, add_material)");
  expect_error(kSlotsLevel, "ac2", "[{\"op\":\"replace\",\"value\":1}]", 2,
               "op 0 (replace): missing \"path\" (a JSON pointer string)");
  expect_error(kSlotsLevel, "ac2", "[{\"op\":\"replace\",\"path\":\"" + kRepl + "\"}]", 2,
               "op 0 (" + kRepl + "): missing \"value\"");
  expect_error(kSlotsLevel, "ac2", "[{\"op\":\"copy\",\"path\":\"" + kRepl + "\"}]", 2,
               "op 0 (" + kRepl + "): missing \"from\" (a JSON pointer string)");
  expect_error(kSlotsLevel, "ac2", "[{\"op\":\"test\",\"op\":\"test\",\"path\":\"/size\",\"value\":807}]", 2,
               "op 0 (): member \"op\" given twice");
  std::string deep(100, '[');
  expect_error(kSlotsLevel, "ac2",
               "[{\"op\":\"test\",\"path\":\"/size\",\"value\":" + deep + std::string(100, ']') + "}]", 2,
               "nested deeper than 64 levels");
}

TEST_F(PatchCli, BadPointers) {
  expect_error(kSlotsLevel, "ac2", "[{\"op\":\"replace\",\"path\":\"objects\",\"value\":1}]", 2,
               "op 0 (objects): not a JSON pointer (RFC 6901: \"\" or \"/\" segments, \"~0\" and \"~1\" escapes)");
  expect_error(kSlotsLevel, "ac2",
               "[{\"op\":\"replace\",\"path\":\"/objects/0x00000000000004d3/managed\",\"value\":1}]", 2,
               "op 0 (/objects/0x00000000000004d3/managed): no object with key \"0x00000000000004d3\" in this file");
  expect_error(
      kSlotsLevel, "ac2", "[{\"op\":\"replace\",\"path\":\"" + kObj + "/instance/slots/0/id\",\"value\":1}]", 2,
      "op 0 (" + kObj + "/instance/slots/0/id): points to nothing in the document (replace needs a value there)");
  expect_error(kSlotsLevel, "ac2", "[{\"op\":\"replace\",\"path\":\"" + kObj + "/nonsense\",\"value\":1}]", 2,
               "op 0 (" + kObj + "/nonsense): points to nothing in the document (replace needs a value there)");
  expect_error(kSlotsLevel, "ac2", "[{\"op\":\"add\",\"path\":\"" + kObj + "/nonsense\",\"value\":1}]", 2,
               "op 0 (" + kObj + "/nonsense): unknown field");
  expect_error(kSlotsLevel, "ac2", "[{\"op\":\"test\",\"path\":\"/elsewhere\",\"value\":1}]", 2,
               "op 0 (/elsewhere): the document has no member \"elsewhere\" (format, game, size, objects, spans)");
}

// A pointer that misses a member by a letter or two names the member it nearly names; one that misses by
// more, or misses an array element, gets no guess.
TEST_F(PatchCli, APointerThatNearlyNamesAMemberSuggestsIt) {
  expect_error(
      kSlotsLevel, "ac2", "[{\"op\":\"replace\",\"path\":\"" + kObj + "/activ\",\"value\":1}]", 2,
      "op 0 (" + kObj +
          "/activ): points to nothing in the document (replace needs a value there) (did you mean \"active\"?)");
  expect_error(kSlotsLevel, "ac2", "[{\"op\":\"test\",\"path\":\"" + kObj + "/instance/slotz/1\",\"value\":1}]", 2,
               "op 0 (" + kObj + "/instance/slotz/1): points to nothing in the document (did you mean \"slots\"?)");
  expect_error(kSlotsLevel, "ac2", "[{\"op\":\"remove\",\"path\":\"" + kObj + "/instance/slots/1/materialz/0\"}]", 2,
               "op 0 (" + kObj +
                   "/instance/slots/1/materialz/0): points to nothing in the document (did you mean "
                   "\"materials\"?)");
  expect_error(kSlotsLevel, "ac2", "[{\"op\":\"test\",\"path\":\"" + kObj + "/instance/slots/9\",\"value\":1}]", 2,
               "op 0 (" + kObj + "/instance/slots/9): points to nothing in the document");
  expect_error(kSlotsLevel, "ac2", "[{\"op\":\"test\",\"path\":\"" + kObj + "/xyzzy\",\"value\":1}]", 2,
               "op 0 (" + kObj + "/xyzzy): points to nothing in the document");
}

// The operation's path is named once: build's reason for the field the operation wrote does not repeat it,
// while a reason about another field still names that field.
TEST_F(PatchCli, AnErrorNamesTheOperationsPathOnce) {
  expect_error(kSlotsLevel, "ac2", "[{\"op\":\"replace\",\"path\":\"" + kObj + "/managed\",\"value\":256}]", 2,
               "op 0 (" + kObj + "/managed): must be an integer 0..255 (found 256)");
  expect_error(kSlotsLevel, "ac2",
               "[{\"op\":\"replace\",\"path\":\"" + kObj + "/instance/class\",\"value\":\"MeshInstanceData\"}]", 2,
               "op 0 (" + kObj + "/instance/class): " + kObj + "/instance/is_fake: missing field");
}

TEST_F(PatchCli, RefusedFields) {
  auto refused = [&](const std::string& path, const std::string& value, const std::string& reason) {
    expect_error(kSlotsLevel, "ac2", "[{\"op\":\"replace\",\"path\":\"" + path + "\",\"value\":" + value + "}]", 2,
                 "op 0 (" + path + "): " + about(path, reason));
  };
  // offset, length and class are members like the fields: the edited object is refused for build's reason.
  refused(kObj + "/offset", "15", kObj + "/offset: must be 14, where its span starts (found 15)");
  refused(kObj + "/length", "783",
          kObj +
              "/length: the fields encode to 782 bytes: an object inside a level file cannot change size (the size "
              "fields of the container around it are not known; inside a data file or an archive they are)");
  refused(kObj + "/class", "\"LODSelector\"",
          kObj + "/class: must be a top-level class of ac2 (found \"LODSelector\")");
  refused(kObj + "/instance/class", "\"MeshInstanceData\"", kObj + "/instance/is_fake: missing field");
  refused("/spans/0/opaque", "\"\"", "\"spans\" are read-only: opaque bytes cannot be patched");
  refused("/format", "\"anvilrt/2\"", "\"format\" is read-only: only the fields of objects can change");
  refused("/size", "808", "\"size\" is read-only: only the fields of objects can change");
  refused("/objects", "{}", "objects cannot be added or removed: the bytes around them would have to grow or shrink");
  refused("", "[]", "replace of the whole document is refused: only the fields of objects can change");
  refused(kObj + "/instance/shader_constants", "4",
          kObj + "/instance/shader_constants: shader_constants must be 3 (a checked constant) (found 4)");
  refused(kObj + "/instance/slots/0",
          "{\"id\":\"0x0000000000000001\",\"class\":\"ImpostorInstanceData\",\"instances\":[],\"bounds\":\"" +
              std::string(80, '0') + "\",\"impostor\":\"" + std::string(20, '0') + "\"}",
          kObj +
              "/length: the fields encode to 848 bytes: an object inside a level file cannot change size (the size "
              "fields of the container around it are not known; inside a data file or an archive they are)");
  expect_error(kSlotsLevel, "ac2", "[{\"op\":\"remove\",\"path\":\"" + kObj + "\"}]", 2,
               "op 0 (" + kObj + "): an object cannot be removed: the bytes around it would have to shrink");
  expect_error(kSlotsLevel, "ac2",
               "[{\"op\":\"move\",\"from\":\"" + kObj + "/managed\",\"path\":\"" + kObj + "/active\"}]", 2,
               "op 0 (" + kObj + "/active): " + kObj + "/managed: missing field");
}

TEST_F(PatchCli, BadValues) {
  auto bad = [&](const std::string& path, const std::string& value, const std::string& reason) {
    expect_error(kSlotsLevel, "ac2", "[{\"op\":\"replace\",\"path\":\"" + path + "\",\"value\":" + value + "}]", 2,
                 "op 0 (" + path + "): " + about(path, reason));
  };
  bad(kObj + "/managed", "256", kObj + "/managed: must be an integer 0..255 (found 256)");
  bad(kObj + "/managed", "-1", kObj + "/managed: must be an integer 0..255 (found -1)");
  bad(kObj + "/managed", "1.5", kObj + "/managed: must be an integer 0..255 (found 1.5)");
  bad(kObj + "/managed", "\"1\"", kObj + "/managed: must be an integer 0..255 (found a string)");
  bad(kObj + "/managed", "300.0", kObj + "/managed: must be an integer 0..255 (found 300.0)");
  bad(kObj + "/object", "[]", kObj + "/object: must be an object (found an array)");
  bad(kObj + "/object/tag", "\"0300\"", kObj + "/object/tag: must be an array of 2 elements (found a string)");
  bad(kRepl, "null", kRepl + ": must be an id \"0x\" + 16 hex digits (found null)");
  bad(kRepl, "\"0x3333\"", kRepl + ": must be an id \"0x\" + 16 hex digits (found \"0x3333\")");
  bad(kRepl, "3689348814741910324", kRepl + ": must be an id \"0x\" + 16 hex digits (found a number)");
  bad(kObj + "/instance/instances/0/0", "\"f32:7fc00000\"",
      kObj + "/instance/instances/0/0: must be a number or \"f32:0x\" + 8 hex digits (found \"f32:7fc00000\")");
  bad(kObj + "/instance/instances/0/0", "1e39",
      kObj + "/instance/instances/0/0: must be within the f32 range (found 1e39)");
  bad(kObj + "/instance/bounds", "\"00\"", kObj + "/instance/bounds: must be 40 bytes of hex (found 1 byte)");
  bad(kObj + "/tail/data_layout", "4294967296",
      kObj + "/tail/data_layout: must be an integer 0..4294967295 (found 4294967296)");
  bad(kObj + "/instance/instances/0", "[1,2,3]", kObj + "/instance/instances/0: must have 16 elements (found 3)");
  bad(kObj + "/instance/instances/0", "[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0]",
      kObj + "/instance/instances/0: must have 16 elements (found 15)");
  bad(kObj + "/instance/instances/0/3", "-3.5e38",
      kObj + "/instance/instances/0/3: must be within the f32 range (found -3.5e38)");
}

TEST_F(PatchCli, FailedTestsAndZeroMatchesExitOne) {
  expect_error(kSlotsLevel, "ac2", "[{\"op\":\"test\",\"path\":\"" + kRepl + "\",\"value\":\"0x0000000000000000\"}]", 1,
               "op 0 (" + kRepl + "): test failed: the value is \"0x3333333333333334\", not \"0x0000000000000000\"");
  expect_error(kSlotsLevel, "ac2",
               "[{\"op\":\"swap_material\",\"from\":\"0x0000000000000005\",\"to\":\"0x0000000000000006\"}]", 1,
               "op 0 (swap_material): matched no material info with replacement 0x0000000000000005");
  expect_error(test::corpus("sws/lod_selector.bin"), "sws",
               "[{\"op\":\"set_switch_distance\",\"objects\":[],\"value\":3}]", 1,
               "op 0 (set_switch_distance): matched no used LODSelector slot");
}

TEST_F(PatchCli, AnyFailingOpAbortsTheWholePatch) {
  // Op 0 and op 1 are fine; op 2 fails: nothing is written, and the error names op 2.
  expect_error(kSlotsLevel, "ac2",
               "[{\"op\":\"replace\",\"path\":\"" + kRepl + "\",\"value\":\"0x0000000000000001\"}," +
                   "{\"op\":\"swap_material\",\"from\":\"0x3333333333333333\",\"to\":\"0x0000000000000002\"}," +
                   "{\"op\":\"replace\",\"path\":\"" + kObj + "/active\",\"value\":300}]",
               2, "op 2 (" + kObj + "/active): must be an integer 0..255 (found 300)");
}

TEST_F(PatchCli, InPlaceReplacesTheFileOrLeavesItAlone) {
  std::string file = dir_.path("level.bin");
  std::vector<u8> original = test::read_file(kSlotsLevel);
  test::write_file(file, original);
  std::string bad = patch_file("[{\"op\":\"replace\",\"path\":\"" + kObj + "/active\",\"value\":300}]");
  auto r = test::run_cli({"patch", file, bad, "--in-place", "--game", "ac2"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(test::read_file(file), original);
  std::string good = patch_file("[{\"op\":\"replace\",\"path\":\"" + kObj + "/active\",\"value\":9}]");
  r = test::run_cli({"patch", file, good, "--in-place", "--game", "ac2"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::vector<u8> expected = original;
  ASSERT_EQ(expected[14 + 12 + 1], 1);  // the Visual at 0x0e: header 12 bytes, then managed, active
  expected[14 + 12 + 1] = 9;
  EXPECT_EQ(test::read_file(file), expected);
  std::size_t entries = 0;
  for (auto& e : fs::directory_iterator(dir_.path(""))) entries += e.path().filename().string().starts_with(".");
  EXPECT_EQ(entries, 0u);  // no temporary left
}

TEST_F(PatchCli, DryRunReportsAndWritesNothing) {
  std::string patch =
      patch_file("[{\"op\":\"test\",\"path\":\"" + kRepl + "\",\"value\":\"0x3333333333333334\"}," +
                 "{\"op\":\"replace\",\"path\":\"" + kRepl + "\",\"value\":\"0x00000000000000AB\"}," +
                 "{\"op\":\"transform\",\"objects\":[\"0x00000000000004d2\"],\"translate\":[0.1,0,0]}]");
  std::string out;
  auto r = run(kSlotsLevel, "ac2", patch, out, {"--dry-run"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(r.out, "op 0 test " + kRepl + ": \"0x3333333333333334\" (passed)\n" + "op 1 replace " + kRepl +
                       ": \"0x3333333333333334\" -> \"0x00000000000000ab\"\n" + "op 2 transform " + kObj +
                       "/instance/instances/0: [1,0,0,0,0,1,0,0,0,0,1,0,10,20,30,1] -> "
                       "[1,0,0,0,0,1,0,0,0,0,1,0,10.1,20,30,1]\n" +
                       "op 2 transform " + kObj +
                       "/instance/slots/1/instances/0: [2,0,0,0,0,2,0,0,0,0,2,0,-1.5,0.25,100,1] -> "
                       "[2,0,0,0,0,2,0,0,0,0,2,0,-1.4,0.25,100,1]\n" +
                       "dry run: 1 object would change; nothing written\n");
}

TEST_F(PatchCli, CommandLineErrors) {
  std::string patch = patch_file("[]");
  auto r = test::run_cli({"patch", kSlotsLevel, patch, "--game", "ac2"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err,
            "anvilrt: missing -o OUT, --in-place or --dry-run (usage: anvilrt patch FILE PATCH (-o OUT | --in-place | "
            "--dry-run))\n");
  r = test::run_cli({"patch", kSlotsLevel, dir_.path("missing.json"), "-o", dir_.path("o.bin")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(fs::exists(dir_.path("o.bin")));
  std::string out;
  r = run(kSlotsLevel, "ac2", patch, out);  // the empty patch: a copy
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(out), test::read_file(kSlotsLevel));
}

TEST_F(PatchCli, APatchAppliedTwiceFailsTheSecondTime) {
  std::string patch = patch_file("[{\"op\":\"test\",\"path\":\"" + kRepl + "\",\"value\":\"0x3333333333333334\"}," +
                                 "{\"op\":\"replace\",\"path\":\"" + kRepl + "\",\"value\":\"0x4444444444444444\"}]");
  std::string once, twice;
  auto r = run(kSlotsLevel, "ac2", patch, once);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = run(once, "ac2", patch, twice);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "anvilrt: " + patch + ": op 0 (" + kRepl +
                       "): test failed: the value is \"0x4444444444444444\", not \"0x3333333333333334\"\n");
  EXPECT_FALSE(fs::exists(twice));
}

// A large file of many Visuals in opaque filler: a swap and two replaces change exactly the bytes of
// those fields, every other byte is the same.
TEST_F(PatchCli, ALargeFileChangesOnlyThePatchedFieldsBytes) {
  std::vector<u8> unit = test::read_file(kSlotsLevel);
  auto find = [&](u64 value) {
    u8 raw[8];
    std::memcpy(raw, &value, 8);
    std::size_t at = std::string::npos, n = 0;
    for (std::size_t i = 0; i + 8 <= unit.size(); ++i)
      if (std::memcmp(unit.data() + i, raw, 8) == 0) at = i, ++n;
    EXPECT_EQ(n, 1u);
    return at;
  };
  std::size_t repl0 = find(0x3333333333333333), repl1 = find(0x3333333333333334);
  std::mt19937 rng(7);
  std::vector<u8> file;
  std::vector<std::size_t> starts;
  for (int i = 0; i < 4000; ++i) {
    starts.push_back(file.size());
    file.insert(file.end(), unit.begin(), unit.end());
    for (int k = 0, n = static_cast<int>(rng() % 64); k < n; ++k) file.push_back(static_cast<u8>('a' + rng() % 26));
  }
  ASSERT_GT(file.size(), 3'000'000u);
  std::string path = dir_.path("large.bin");
  test::write_file(path, file);
  Level level = carve_level(file, Game::ac2);
  ASSERT_EQ(level.object_count(), 4000u);
  std::vector<u8> expected = file;
  u64 to = 0x0123456789abcdef, one = 0x00000000000000ff;
  for (std::size_t s : starts) std::memcpy(expected.data() + s + repl0, &to, 8);
  // The 10th unit's key is "<id>@<offset>" (ids repeat); its Visual starts 14 bytes into the unit.
  std::string key = "0x00000000000004d2@" + std::to_string(starts[9] + 14);
  std::memcpy(expected.data() + starts[9] + repl1, &one, 8);
  expected[starts[3999] + 14 + 12 + 1] = 0;  // the last Visual's `active`
  std::string patch = patch_file(
      "[{\"op\":\"swap_material\",\"from\":\"0x3333333333333333\",\"to\":\"0x0123456789abcdef\"},"
      "{\"op\":\"replace\",\"path\":\"/objects/" +
      key + "/instance/slots/1/materials/1/replacement\",\"value\":\"0x00000000000000ff\"}," +
      "{\"op\":\"replace\",\"path\":\"/objects/0x00000000000004d2@" + std::to_string(starts[3999] + 14) +
      "/active\",\"value\":0}]");
  std::string out;
  auto r = run(path, "ac2", patch, out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<u8> got = test::read_file(out);
  ASSERT_EQ(got.size(), file.size());
  std::size_t differing = 0;
  for (std::size_t i = 0; i < got.size(); ++i) differing += got[i] != file[i];
  EXPECT_EQ(differing, 4000u * 8 + 8 + 1);  // 0x33.. -> 0x0123..: every byte differs
  EXPECT_TRUE(got == expected);
}

}  // namespace
}  // namespace anvil
