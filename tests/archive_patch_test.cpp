// Patching several levels as one document (patch/archive_patch.hpp), on sets of generated and corpus
// level data standing in for an archive's data files: routing by unique key, by /datafiles pointer, the
// ambiguous key, bulk operations over all and narrowed data files, all or nothing, the first failure
// wins, dry-run changes. Each data file's result is compared with the single-level engine applied to that
// data file alone (what `patch` does to an extracted data file).
#include "patch/archive_patch.hpp"

#include <absl/strings/str_cat.h>
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include "gen/generator.hpp"
#include "pipeline/dump.hpp"
#include "pipeline/patch_output.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

std::vector<u8> generated(u64 seed, u64 visuals = 40) {
  gen::Options options;
  options.game = Game::ac2;
  options.visuals = visuals;
  options.seed = seed;
  return gen::generate_bytes(options);
}

// The first material replacement of a level: its object key, the field's pointer inside the object, the
// value.
struct Replacement {
  std::string key, field, value;
};
Replacement first_replacement(const std::vector<u8>& bytes) {
  rapidjson::Document doc;
  std::string text = dump_json(bytes, {Game::ac2, false});
  doc.Parse(text.c_str());
  for (auto& object : doc["objects"].GetObject()) {
    const auto& v = object.value;
    if (!v.HasMember("instance") || v["instance"].IsNull()) continue;
    const auto& instance = v["instance"];
    if (instance.HasMember("materials") && instance["materials"].Size() > 0)
      return {object.name.GetString(), "/instance/materials/0/replacement",
              instance["materials"][0]["replacement"].GetString()};
    if (!instance.HasMember("slots")) continue;
    for (rapidjson::SizeType s = 0; s < instance["slots"].Size(); ++s) {
      const auto& slot = instance["slots"][s];
      if (slot.IsNull() || !slot.HasMember("materials") || slot["materials"].Size() == 0) continue;
      return {object.name.GetString(), absl::StrCat("/instance/slots/", s, "/materials/0/replacement"),
              slot["materials"][0]["replacement"].GetString()};
    }
  }
  ADD_FAILURE() << "no material replacement in the level";
  return {};
}

class ArchivePatch : public ::testing::Test {
 protected:
  ArchivePatch() : set_(Game::ac2) {}
  void add(const std::string& name, std::vector<u8> bytes) {
    originals_.push_back(bytes);
    set_.add(name, std::move(bytes));
  }
  patch::ArchivePatchOutcome apply(const std::string& text, bool record = false) {
    patch::PatchOptions options;
    options.record_changes = record;
    return patch::apply_archive_patch_text(set_, text, options);
  }
  // The bytes of data file `i` after the archive outcome (its original when untouched).
  std::vector<u8> after(const patch::ArchivePatchOutcome& out, std::size_t i) {
    for (const auto& d : out.datafiles)
      if (d.datafile == i) {
        const Level* level = *set_.level(i);
        std::vector<u8> bytes = patch::patched_bytes(*level, d.result);
        EXPECT_FALSE(patch::check_written(*level, d.result, bytes));
        return bytes;
      }
    return originals_[i];
  }
  // The bytes of data file `i` with `text` applied to it alone by the single-level engine.
  std::vector<u8> alone(std::size_t i, const std::string& text) {
    Level level = carve_level(originals_[i], Game::ac2);
    auto out = patch::apply_patch_text(level, text);
    EXPECT_FALSE(out.error) << out.error->message();
    return out.error ? std::vector<u8>{} : patch::patched_bytes(level, out.result);
  }
  void expect_error(const patch::ArchivePatchOutcome& out, int exit_code, const std::string& message) {
    ASSERT_TRUE(out.error);
    EXPECT_EQ(out.error->exit_code, exit_code);
    EXPECT_EQ(out.error->message(), message);
    EXPECT_TRUE(out.datafiles.empty());
  }

  MemoryLevelSet set_;
  std::vector<std::vector<u8>> originals_;
};

TEST_F(ArchivePatch, UniqueKeyAddressesItsDataFileAsAnExtractedPatchDoes) {
  add("a.data", generated(1));
  add("b.data", generated(2));
  Replacement r = first_replacement(originals_[1]);
  std::string text =
      absl::StrCat(R"([{"op":"test","path":"/objects/)", r.key, r.field, R"(","value":")", r.value,
                   R"("},{"op":"replace","path":"/objects/)", r.key, r.field, R"(","value":"0x0123456789abcdef"}])");
  auto out = apply(text);
  ASSERT_FALSE(out.error) << out.error->message();
  ASSERT_EQ(out.datafiles.size(), 1u);
  EXPECT_EQ(out.datafiles[0].datafile, 1u);
  EXPECT_EQ(out.edited_objects(), 1u);
  EXPECT_EQ(after(out, 0), originals_[0]);
  std::vector<u8> b = after(out, 1);
  EXPECT_NE(b, originals_[1]);
  EXPECT_EQ(b, alone(1, text));
}

TEST_F(ArchivePatch, AmbiguousKeyIsRefusedNamingTheDataFiles) {
  add("a.data", test::read_file(test::corpus("ac2/direct_mesh.bin")));
  add("b.data", generated(3));
  add("c.data", test::read_file(test::corpus("ac2/lod_selector_slots.bin")));
  std::string path = "/objects/0x00000000000004d2/managed";
  expect_error(apply(R"([{"op":"replace","path":")" + path + R"(","value":1}])"), 2,
               "op 0 (" + path +
                   "): the object key \"0x00000000000004d2\" is in several data files (a.data, c.data): address one "
                   "as /datafiles/NAME/objects/0x00000000000004d2");
  // Named through its data file, it is found there only.
  std::string text = R"([{"op":"replace","path":"/datafiles/c.data/objects/0x00000000000004d2/managed","value":1}])";
  auto out = apply(text);
  ASSERT_FALSE(out.error) << out.error->message();
  ASSERT_EQ(out.datafiles.size(), 1u);
  EXPECT_EQ(out.datafiles[0].datafile, 2u);
  EXPECT_EQ(after(out, 0), originals_[0]);
  EXPECT_EQ(after(out, 2), alone(2, R"([{"op":"replace","path":"/objects/0x00000000000004d2/managed","value":1}])"));
}

TEST_F(ArchivePatch, PointersTheArchiveDocumentDoesNotHave) {
  add("a.data", generated(1));
  add("b/c~d", generated(2));
  expect_error(apply(R"([{"op":"replace","path":"/objects/0x00000000000004d2/managed","value":1}])"), 2,
               "op 0 (/objects/0x00000000000004d2/managed): no object with key \"0x00000000000004d2\" in any data file "
               "of the archive");
  expect_error(
      apply(R"([{"op":"test","path":"/datafiles/nope/size","value":1}])"), 2,
      "op 0 (/datafiles/nope/size): no data file is named or has the id \"nope\" in the archive (see anvilrt ls)");
  expect_error(apply(R"([{"op":"test","path":"/size","value":1}])"), 2,
               "op 0 (/size): the document has no member \"size\" (format, game, datafiles)");
  expect_error(apply(R"([{"op":"test","path":"/datafiles/a.data/spans","value":1}])"), 2,
               "op 0 (/datafiles/a.data/spans): a data file's member has no \"spans\" (size, objects)");
  expect_error(apply(R"([{"op":"remove","path":"/datafiles/a.data"}])"), 2,
               "op 0 (/datafiles/a.data): a data file as a whole cannot be patched or tested: address its \"size\" or "
               "its objects");
  expect_error(apply(R"([{"op":"replace","path":"/game","value":"sws"}])"), 2,
               "op 0 (/game): \"game\" is read-only: only the fields of objects can change");
  expect_error(apply(R"([{"op":"test","path":"/game","value":"sws"}])"), 1,
               "op 0 (/game): test failed: the value is \"ac2\", not \"sws\"");
  // The size of a data file is its own, read-only; the escaped name addresses "b/c~d".
  std::size_t size_b = originals_[1].size();
  auto out = apply(absl::StrCat(R"([{"op":"test","path":"/format","value":"anvilrt/1"},)",
                                R"({"op":"test","path":"/datafiles/b~1c~0d/size","value":)", size_b, "}]"));
  EXPECT_FALSE(out.error) << out.error->message();
  expect_error(apply(R"([{"op":"replace","path":"/datafiles/b~1c~0d/size","value":1}])"), 2,
               "op 0 (/datafiles/b~1c~0d/size): \"size\" is read-only: only the fields of objects can change (data "
               "file b/c~d)");
  // What the single-level engine refuses in any data file, it refuses with its own words.
  expect_error(apply(R"([{"op":"frobnicate"}])"), 2,
               "op 0 (frobnicate): unknown op \"frobnicate\" (test, replace, add, remove, move, copy, swap_material, "
               "transform, set_switch_distance, scale_switch_distance, "
               "duplicate_instance, remove_instance, add_material)");
  expect_error(apply("[7]"), 2, "op 0 (): an operation must be a JSON object (found a number)");
  expect_error(apply("{}"), 2, "a patch must be a JSON array of operations (found an object)");
}

TEST_F(ArchivePatch, MoveAndCopyStayInOneDataFile) {
  add("a.data", generated(1));
  add("b.data", generated(2));
  Replacement ra = first_replacement(originals_[0]);
  Replacement rb = first_replacement(originals_[1]);
  std::string across = absl::StrCat(R"([{"op":"copy","from":"/objects/)", ra.key, ra.field, R"(","path":"/objects/)",
                                    rb.key, rb.field, R"("}])");
  expect_error(apply(across), 2,
               absl::StrCat("op 0 (/objects/", rb.key, rb.field,
                            "): \"from\" lies in data file a.data and \"path\" in data file b.data: copy works within "
                            "one data file"));
  std::string within = absl::StrCat(R"([{"op":"copy","from":"/datafiles/b.data/objects/)", rb.key,
                                    R"(/instance/id","path":"/objects/)", rb.key, rb.field, R"("}])");
  auto out = apply(within);
  ASSERT_FALSE(out.error) << out.error->message();
  EXPECT_EQ(after(out, 1), alone(1, absl::StrCat(R"([{"op":"copy","from":"/objects/)", rb.key,
                                                 R"(/instance/id","path":"/objects/)", rb.key, rb.field, R"("}])")));
}

TEST_F(ArchivePatch, BulkOperationsRangeOverAllOrTheNamedDataFiles) {
  add("a.data", generated(1));
  add("b.data", generated(2));
  add("c.data", generated(3));
  Replacement r = first_replacement(originals_[1]);
  std::string swap = absl::StrCat(R"({"op":"swap_material","from":")", r.value, R"(","to":"0x0123456789abcdef")");
  // Over every data file: those that hold the material change, the others stay as they are.
  auto out = apply("[" + swap + "}]");
  ASSERT_FALSE(out.error) << out.error->message();
  for (std::size_t i = 0; i < 3; ++i) {
    Level level = carve_level(originals_[i], Game::ac2);
    auto single = patch::apply_patch_text(level, "[" + swap + "}]");
    if (single.error) {
      EXPECT_EQ(single.error->exit_code, 1) << single.error->message();
      EXPECT_EQ(after(out, i), originals_[i]) << i;
    } else {
      EXPECT_EQ(after(out, i), patch::patched_bytes(level, single.result)) << i;
    }
  }
  EXPECT_EQ(after(out, 1), alone(1, "[" + swap + "}]"));
  // Narrowed to data files that do not hold it: matched nothing (exit 1), named.
  bool in_a = !patch::apply_patch_text(carve_level(originals_[0], Game::ac2), "[" + swap + "}]").error;
  bool in_c = !patch::apply_patch_text(carve_level(originals_[2], Game::ac2), "[" + swap + "}]").error;
  if (!in_a && !in_c) {
    auto narrowed = apply("[" + swap + R"(,"datafiles":["a.data","c.data"]}])");
    ASSERT_TRUE(narrowed.error);
    EXPECT_EQ(narrowed.error->exit_code, 1);
    EXPECT_EQ(narrowed.error->message(),
              absl::StrCat("op 0 (swap_material): matched no material info with replacement ", r.value,
                           " in any of the 2 data files"));
  }
  auto only_b = apply("[" + swap + R"(,"datafiles":["b.data"]}])");
  ASSERT_FALSE(only_b.error) << only_b.error->message();
  EXPECT_EQ(only_b.edited_datafiles(), 1u);
  EXPECT_EQ(after(only_b, 1), alone(1, "[" + swap + "}]"));
  // Bad "datafiles" members.
  expect_error(apply("[" + swap + R"(,"datafiles":[]}])"), 2,
               "op 0 (swap_material): \"datafiles\" must be a non-empty array of data file names");
  expect_error(apply("[" + swap + R"(,"datafiles":["b.data","b.data"]}])"), 2,
               "op 0 (swap_material): \"datafiles\" lists \"b.data\" twice");
  expect_error(apply("[" + swap + R"(,"datafiles":["x"]}])"), 2,
               "op 0 (swap_material): no data file is named or has the id \"x\" in the archive (see anvilrt ls)");
  // Nothing anywhere.
  expect_error(apply(R"([{"op":"swap_material","from":"0x0000000000000001","to":"0x0000000000000002"}])"), 1,
               "op 0 (swap_material): matched no material info with replacement 0x0000000000000001 in any of the 3 "
               "data files");
}

TEST_F(ArchivePatch, BulkObjectKeysGoToTheirDataFiles) {
  add("a.data", generated(1));
  add("b.data", generated(2));
  std::string ka = first_replacement(originals_[0]).key, kb = first_replacement(originals_[1]).key;
  auto transform = [](const std::string& keys) {
    return absl::StrCat(R"([{"op":"transform","objects":[)", keys, R"(],"translate":[1,2,3]}])");
  };
  auto out = apply(transform(absl::StrCat("\"", ka, "\",\"", kb, "\"")));
  ASSERT_FALSE(out.error) << out.error->message();
  EXPECT_EQ(out.edited_datafiles(), 2u);
  EXPECT_EQ(after(out, 0), alone(0, transform("\"" + ka + "\"")));
  EXPECT_EQ(after(out, 1), alone(1, transform("\"" + kb + "\"")));
  // The engine's own refusal of an empty list.
  expect_error(apply(transform("")), 2, "op 0 (transform): \"objects\" is empty");
}

TEST_F(ArchivePatch, AllOrNothingAndTheFirstFailureWins) {
  add("a.data", generated(1));
  add("b.data", generated(2));
  Replacement ra = first_replacement(originals_[0]);
  Replacement rb = first_replacement(originals_[1]);
  auto replace = [](const Replacement& r, const std::string& value) {
    return absl::StrCat(R"({"op":"replace","path":"/objects/)", r.key, r.field, R"(","value":)", value, "}");
  };
  auto test = [](const Replacement& r, const std::string& value) {
    return absl::StrCat(R"({"op":"test","path":"/objects/)", r.key, r.field, R"(","value":)", value, "}");
  };
  // op 0 edits a.data, op 1 fails in b.data: nothing.
  expect_error(
      apply(absl::StrCat("[", replace(ra, "\"0x0000000000000009\""), ",", test(rb, "\"0x0000000000000009\""), "]")), 1,
      absl::StrCat("op 1 (/objects/", rb.key, rb.field, "): test failed: the value is \"", rb.value,
                   "\", not \"0x0000000000000009\" (data file b.data)"));
  // a.data fails at op 2, b.data at op 1: op 1 is the first to fail, as one after another; the reason is
  // the engine's for b.data alone.
  auto single = patch::apply_patch_text(carve_level(originals_[1], Game::ac2), "[" + replace(rb, "7") + "]");
  ASSERT_TRUE(single.error);
  expect_error(apply(absl::StrCat("[", replace(ra, "\"0x0000000000000009\""), ",", replace(rb, "7"), ",",
                                  test(ra, "\"0x000000000000000a\""), "]")),
               2,
               absl::StrCat("op 1 (/objects/", rb.key, rb.field, "): ", single.error->reason, " (data file b.data)"));
  // A routing refusal after an engine failure: the engine's, which comes first.
  expect_error(apply(absl::StrCat("[", test(rb, "\"0x0000000000000009\""), R"(,{"op":"test","path":"/x","value":1}])")),
               1,
               absl::StrCat("op 0 (/objects/", rb.key, rb.field, "): test failed: the value is \"", rb.value,
                            "\", not \"0x0000000000000009\" (data file b.data)"));
}

TEST_F(ArchivePatch, DryRunChangesAreArchivePointers) {
  add("a.data", generated(1));
  add("b.data", generated(2));
  Replacement rb = first_replacement(originals_[1]);
  auto out = apply(absl::StrCat(R"([{"op":"test","path":"/game","value":"ac2"},{"op":"replace","path":"/objects/)",
                                rb.key, rb.field, R"(","value":"0x0000000000000009"}])"),
                   true);
  ASSERT_FALSE(out.error) << out.error->message();
  ASSERT_EQ(out.document_changes.size(), 1u);
  EXPECT_EQ(out.document_changes[0].pointer, "/game");
  ASSERT_EQ(out.datafiles.size(), 1u);
  ASSERT_EQ(out.datafiles[0].result.changes.size(), 1u);
  const patch::Change& c = out.datafiles[0].result.changes[0];
  EXPECT_EQ(c.op_index, 1u);
  EXPECT_EQ(c.pointer, absl::StrCat("/datafiles/b.data/objects/", rb.key, rb.field));
  EXPECT_EQ(c.old_value, "\"" + rb.value + "\"");
  EXPECT_EQ(c.new_value, "\"0x0000000000000009\"");
}

TEST_F(ArchivePatch, ANewIdAddressesItsObjectInItsDataFile) {
  add("a.data", generated(1));
  add("b.data", generated(2));
  Replacement rb = first_replacement(originals_[1]);
  // Keys follow ids: after the replace, the new key names the object (in b.data), the old one nothing.
  std::string text = absl::StrCat(R"([{"op":"replace","path":"/objects/)", rb.key,
                                  R"(/id","value":"0x00000000deadbeef"},{"op":"test","path":"/objects/)",
                                  "0x00000000deadbeef", R"(/id","value":"0x00000000deadbeef"}])");
  auto out = apply(text);
  ASSERT_FALSE(out.error) << out.error->message();
  EXPECT_EQ(after(out, 1), alone(1, text));
  expect_error(apply(absl::StrCat(R"([{"op":"replace","path":"/objects/)", rb.key,
                                  R"(/id","value":"0x00000000deadbeef"},{"op":"test","path":"/objects/)", rb.key,
                                  R"(/managed","value":0}])")),
               2,
               absl::StrCat("op 1 (/objects/", rb.key, "/managed): no object with key \"", rb.key,
                            "\" in any data file of the archive"));
}

}  // namespace
}  // namespace anvil
