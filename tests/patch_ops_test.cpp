// The patch engine's RFC 6902 operations on corpus files, asserted on the bytes they produce.
#include <absl/strings/str_cat.h>
#include <gtest/gtest.h>

#include <bit>
#include <cstring>

#include "patch/patch.hpp"
#include "pipeline/patch_output.hpp"
#include "reader/level.hpp"
#include "tests/test_support.hpp"
#include "writer/encode.hpp"

namespace anvil {
namespace {

class PatchOps : public ::testing::Test {
 protected:
  void load(const std::string& relative, Game game) {
    bytes_ = test::read_file(test::corpus(relative));
    level_ = carve_level(bytes_, game);
  }
  patch::PatchOutcome apply(const std::string& text) { return patch::apply_patch_text(level_, text); }
  // The patched bytes; fails the test when the patch does not apply.
  std::vector<u8> applied(const std::string& text) {
    auto out = apply(text);
    EXPECT_FALSE(out.error) << out.error->message();
    if (out.error) return {};
    std::vector<u8> bytes = patch::patched_bytes(level_, out.result);
    EXPECT_FALSE(patch::check_written(level_, out.result, bytes));
    return bytes;
  }
  // The offset of the only occurrence of `value`'s little-endian bytes in the file.
  template <class T>
  std::size_t unique(T value) {
    u8 raw[sizeof(T)];
    std::memcpy(raw, &value, sizeof raw);
    std::size_t found = std::string::npos, count = 0;
    for (std::size_t i = 0; i + sizeof raw <= bytes_.size(); ++i)
      if (std::memcmp(bytes_.data() + i, raw, sizeof raw) == 0) found = i, ++count;
    EXPECT_EQ(count, 1u);
    return found;
  }
  template <class T>
  static void put(std::vector<u8>& b, std::size_t at, T value) {
    std::memcpy(b.data() + at, &value, sizeof value);
  }
  // The file with every object re-encoded from `objects` (an independent path: the typed model).
  std::vector<u8> rewritten(std::vector<Object> objects) { return write_level(level_, objects); }

  std::vector<u8> bytes_;
  Level level_;
};

constexpr const char* kMat = "/objects/0x00000000000004d2/instance/slots/1/materials";

TEST_F(PatchOps, ReplaceAnIdChangesOnlyItsEightBytes) {
  load("ac2/lod_selector_slots.bin", Game::ac2);
  std::vector<u8> expected = bytes_;
  put<u64>(expected, unique<u64>(0x3333333333333334), 0x4444444444444444);
  EXPECT_EQ(applied(absl::StrCat("[{\"op\":\"replace\",\"path\":\"", kMat,
                                 "/1/replacement\",\"value\":\"0x4444444444444444\"}]")),
            expected);
}

TEST_F(PatchOps, ReplaceAcceptsUppercaseHexAndStoresIt) {
  load("ac2/lod_selector_slots.bin", Game::ac2);
  std::vector<u8> expected = bytes_;
  put<u64>(expected, unique<u64>(0x3333333333333334), 0xABCDEF0123456789);
  EXPECT_EQ(applied(absl::StrCat("[{\"op\":\"replace\",\"path\":\"", kMat,
                                 "/1/replacement\",\"value\":\"0xABCDEF0123456789\"}]")),
            expected);
}

TEST_F(PatchOps, AddOnAnExistingMemberReplacesIt) {
  load("ac2/lod_selector_slots.bin", Game::ac2);
  std::vector<u8> expected = bytes_;
  std::size_t mode = unique<u64>(0x3333333333333334) - 1;  // the mode byte precedes the replacement
  ASSERT_EQ(expected[mode], 4);
  expected[mode] = 200;
  EXPECT_EQ(applied(absl::StrCat("[{\"op\":\"add\",\"path\":\"", kMat, "/1/mode\",\"value\":200}]")), expected);
}

TEST_F(PatchOps, TestPassesAndFails) {
  load("ac2/lod_selector_slots.bin", Game::ac2);
  auto ok =
      apply(absl::StrCat("[{\"op\":\"test\",\"path\":\"", kMat, "/0/source\",\"value\":\"0x2222222222222222\"}]"));
  ASSERT_FALSE(ok.error) << ok.error->message();
  EXPECT_EQ(patch::patched_bytes(level_, ok.result), bytes_);
  EXPECT_TRUE(ok.result.edited.empty());
  auto bad =
      apply(absl::StrCat("[{\"op\":\"test\",\"path\":\"", kMat, "/0/source\",\"value\":\"0x2222222222222223\"}]"));
  ASSERT_TRUE(bad.error);
  EXPECT_EQ(bad.error->exit_code, patch::kTestFailed);
  EXPECT_EQ(bad.error->op_index, 0u);
  EXPECT_EQ(bad.error->pointer, std::string(kMat) + "/0/source");
  EXPECT_EQ(bad.error->reason, "test failed: the value is \"0x2222222222222222\", not \"0x2222222222222223\"");
}

// RFC 6902 4.6: the value at the path is the number or string `dump` prints there, compared by value.
TEST_F(PatchOps, TestComparesAsRfc6902Says) {
  load("ac2/float_edges.bin", Game::ac2);
  const std::string o = "/objects/0x00000000000004d2";
  const std::string m = o + "/instance/instances/0/";
  auto test = [&](const std::string& path, const std::string& value) {
    auto out = apply("[{\"op\":\"test\",\"path\":\"" + path + "\",\"value\":" + value + "}]");
    return out.error ? out.error->exit_code : 0;
  };
  EXPECT_EQ(test(m + "6", "0.1"), 0);                  // the f32 0.1f, which dump prints 0.1
  EXPECT_EQ(test(m + "6", "1e-1"), 0);                 // the same number
  EXPECT_EQ(test(m + "6", "0.10000000149011612"), 1);  // the f32's exact value is another number than 0.1
  EXPECT_EQ(test(m + "6", "0.1000001"), 1);
  EXPECT_EQ(test(m + "0", "-0.0"), 0);  // -0.0 is stored
  EXPECT_EQ(test(m + "0", "0"), 0);     // and equals 0 as a number
  EXPECT_EQ(test(m + "15", "1"), 0);    // dump prints 1: 1, 1.0 and 1e0 are the same number
  EXPECT_EQ(test(m + "15", "1.0"), 0);
  EXPECT_EQ(test(m + "15", "1e0"), 0);
  EXPECT_EQ(test(m + "15", "true"), 1);               // a boolean is not a number
  EXPECT_EQ(test(m + "2", "\"f32:0x7fc12345\""), 0);  // a NaN is its string, compared exactly
  EXPECT_EQ(test(m + "2", "\"f32:0x7fc00000\""), 1);
  EXPECT_EQ(test(m + "2", "\"F32:0x7fc12345\""), 1);
  EXPECT_EQ(test(m + "7", "3.4028235e38"), 0);  // FLT_MAX
  EXPECT_EQ(test(m + "7", "\"abc\""), 1);       // a string is not a number: a failed test, not a bad value
  EXPECT_EQ(test(m + "7", "1e39"), 1);
  EXPECT_EQ(test(o + "/managed", "0.0"), 0);
  EXPECT_EQ(test(o + "/managed", "-0"), 0);
  EXPECT_EQ(test(o + "/instance/fake_mesh_index", "7"), 0);
  EXPECT_EQ(test(o + "/instance/fake_mesh_index", "7.000000000000001"), 1);
  EXPECT_EQ(test(o + "/tail/data_u32/0", "4294967295"), 0);
  EXPECT_EQ(test(o + "/tail/data_u32/0", "4294967295.0"), 0);
  EXPECT_EQ(test(o + "/tail/data_u32/0", "4294967296"), 1);
  // Strings exactly: an id in uppercase hex is another string, though it names the same id.
  EXPECT_EQ(test(o + "/instance/compiled/mesh_hash", "\"0x7ff8000000000001\""), 0);
  EXPECT_EQ(test(o + "/instance/compiled/mesh_hash", "\"0x7FF8000000000001\""), 1);
  // Arrays element by element, objects member by member in any order.
  EXPECT_EQ(test(o + "/object/tag", "[3,0]"), 0);
  EXPECT_EQ(test(o + "/object/tag", "[3.0,0.0]"), 0);
  EXPECT_EQ(test(o + "/object/tag", "[0,3]"), 1);
  EXPECT_EQ(test(o + "/object/tag", "[3,0,0]"), 1);
  EXPECT_EQ(test(o + "/object", "{\"id\":\"0x0000000000000000\",\"tag\":[3,0]}"), 0);
  EXPECT_EQ(test(o + "/object", "{\"id\":\"0x0000000000000000\",\"tag\":[3,0],\"x\":1}"), 1);
  EXPECT_EQ(test(o + "/object", "{\"id\":\"0x0000000000000000\",\"id\":\"0x0000000000000000\"}"), 1);
  auto out = apply("[{\"op\":\"test\",\"path\":\"" + m + "6\",\"value\":0.10000000149011612}]");
  ASSERT_TRUE(out.error);
  EXPECT_EQ(out.error->reason, "test failed: the value is 0.1, not 0.10000000149011612");
}

TEST_F(PatchOps, TestReadsStructuralMembersAndTheDocument) {
  load("ac2/lod_selector_slots.bin", Game::ac2);
  const std::string o = "/objects/0x00000000000004d2";
  auto test = [&](const std::string& path, const std::string& value) {
    auto out = apply("[{\"op\":\"test\",\"path\":\"" + path + "\",\"value\":" + value + "}]");
    return out.error ? out.error->exit_code : 0;
  };
  EXPECT_EQ(test(o + "/offset", "14"), 0);
  EXPECT_EQ(test(o + "/offset", "15"), 1);
  EXPECT_EQ(test(o + "/length", "782"), 0);
  EXPECT_EQ(test(o + "/class", "\"Visual\""), 0);
  EXPECT_EQ(test(o + "/instance/class", "\"LODSelectorInstance\""), 0);
  EXPECT_EQ(test("/format", "\"anvilrt/1\""), 0);
  EXPECT_EQ(test("/game", "\"ac2\""), 0);
  EXPECT_EQ(test("/game", "\"sws\""), 1);
  EXPECT_EQ(test("/size", "807"), 0);
  EXPECT_EQ(test("/spans/0", "{\"offset\":0,\"opaque\":\"qrvM3e7/ABES\"}"), 1);  // not these bytes
  EXPECT_EQ(test("/spans/1", "{\"offset\":14,\"object\":\"0x00000000000004d2\"}"), 0);
  EXPECT_EQ(test("/spans/9", "0"), 2);  // nothing there
}

TEST_F(PatchOps, MoveReordersTheMaterialsOfADirectMesh) {
  load("ac2/direct_mesh.bin", Game::ac2);
  std::vector<Object> objects = parse_objects(level_);
  auto& mats = std::get<ac2::MeshInstanceData>(std::get<ac2::Visual>(objects[0]).instance->body).materials;
  ASSERT_EQ(mats.size(), 3u);
  std::rotate(mats.begin(), mats.begin() + 1, mats.end());  // [m1, m2, m0]
  std::vector<u8> expected = rewritten(objects);
  ASSERT_NE(expected, bytes_);
  EXPECT_EQ(applied("[{\"op\":\"move\",\"from\":\"/objects/0x00000000000004d2/instance/materials/0\","
                    "\"path\":\"/objects/0x00000000000004d2/instance/materials/2\"}]"),
            expected);
}

TEST_F(PatchOps, MoveOntoItselfIsANoOp) {
  load("ac2/direct_mesh.bin", Game::ac2);
  EXPECT_EQ(applied("[{\"op\":\"move\",\"from\":\"/objects/0x00000000000004d2/managed\","
                    "\"path\":\"/objects/0x00000000000004d2/managed\"}]"),
            bytes_);
}

TEST_F(PatchOps, CopyOneMaterialsReplacementOntoAnother) {
  load("ac2/lod_selector_slots.bin", Game::ac2);
  std::vector<u8> expected = bytes_;
  put<u64>(expected, unique<u64>(0x3333333333333334), 0x3333333333333333);
  EXPECT_EQ(applied(absl::StrCat("[{\"op\":\"copy\",\"from\":\"", kMat, "/0/replacement\",\"path\":\"", kMat,
                                 "/1/replacement\"}]")),
            expected);
}

TEST_F(PatchOps, CopyBetweenObjects) {
  load("ac2/back_to_back.bin", Game::ac2);
  std::vector<Object> objects = parse_objects(level_);
  auto& second = std::get<ac2::Visual>(objects[1]);
  auto& third = std::get<ac2::Visual>(objects[2]);
  third.object = second.object;
  std::vector<u8> expected = rewritten(objects);
  ASSERT_NE(expected, bytes_);
  auto out = apply(
      "[{\"op\":\"copy\",\"from\":\"/objects/0x00000000000004d3/object\",\"path\":\"/objects/0x00000000000004d4/"
      "object\"}]");
  ASSERT_FALSE(out.error) << out.error->message();
  EXPECT_EQ(patch::patched_bytes(level_, out.result), expected);
  std::size_t third_piece = 0;
  while (level_.pieces[third_piece].offset != 391) ++third_piece;
  EXPECT_EQ(out.result.edited, std::vector<std::size_t>{third_piece});  // the source is read, not edited
}

// A removal is an RFC 6902 removal; what decides is whether the object's JSON then re-reads as `build`
// reads it, with build's reason when not.
TEST_F(PatchOps, RemoveIsRefusedWhereBuildRefusesTheResult) {
  load("ac2/direct_mesh.bin", Game::ac2);
  for (const char* path : {"/objects/0x00000000000004d2/managed", "/objects/0x00000000000004d2/instance/materials/0",
                           "/objects/0x00000000000004d2"}) {
    auto out = apply(std::string("[{\"op\":\"remove\",\"path\":\"") + path + "\"}]");
    ASSERT_TRUE(out.error) << path;
    EXPECT_EQ(out.error->exit_code, patch::kBadPatch) << path;
  }
  auto member = apply("[{\"op\":\"remove\",\"path\":\"/objects/0x00000000000004d2/managed\"}]");
  // The operation's own path is named by the error once (PatchError::message), not again in the reason.
  EXPECT_EQ(member.error->reason, "missing field");
  auto element = apply("[{\"op\":\"remove\",\"path\":\"/objects/0x00000000000004d2/instance/materials/0\"}]");
  EXPECT_EQ(element.error->reason,
            "/objects/0x00000000000004d2/length: the fields encode to 543 bytes: an object inside a level file "
            "cannot change size (the size fields of the container around it are not known; inside a data file or an "
            "archive they are)");
}

TEST_F(PatchOps, AddToAnArrayIsRefusedAsAResize) {
  load("ac2/direct_mesh.bin", Game::ac2);
  auto out = apply(
      "[{\"op\":\"add\",\"path\":\"/objects/0x00000000000004d2/instance/instances/-\","
      "\"value\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}]");
  ASSERT_TRUE(out.error);
  EXPECT_EQ(out.error->exit_code, patch::kBadPatch);
  EXPECT_EQ(out.error->reason,
            "/objects/0x00000000000004d2/length: the fields encode to 648 bytes: an object inside a level file "
            "cannot change size (the size fields of the container around it are not known; inside a data file or an "
            "archive they are)");
  auto fixed = apply("[{\"op\":\"add\",\"path\":\"/objects/0x00000000000004d2/object/tag/0\",\"value\":1}]");
  ASSERT_TRUE(fixed.error);
  EXPECT_EQ(fixed.error->reason, "/objects/0x00000000000004d2/object/tag: must have 2 elements (found 3)");
}

TEST_F(PatchOps, ReplaceAWholeObject) {
  load("ac2/direct_mesh.bin", Game::ac2);
  std::vector<Object> objects = parse_objects(level_);
  auto& v = std::get<ac2::Visual>(objects[0]);
  v.active = 7;
  v.tail->display_order = 123456;
  std::vector<u8> expected = rewritten(objects);
  // The whole object as `dump` prints it, edited.
  auto dump = test::run_cli({"dump", test::corpus("ac2/direct_mesh.bin"), "--game", "ac2"});
  ASSERT_EQ(dump.exit_code, 0);
  rapidjson::Document doc;
  doc.Parse(dump.out.c_str());
  rapidjson::Value& object = doc["objects"]["0x00000000000004d2"];
  object["active"] = 7;
  object["tail"]["display_order"] = 123456;
  rapidjson::Document patch_doc(rapidjson::kArrayType);
  rapidjson::Value op(rapidjson::kObjectType);
  op.AddMember("op", "replace", patch_doc.GetAllocator());
  op.AddMember("path", "/objects/0x00000000000004d2", patch_doc.GetAllocator());
  op.AddMember("value", rapidjson::Value(object, patch_doc.GetAllocator()), patch_doc.GetAllocator());
  patch_doc.PushBack(op, patch_doc.GetAllocator());
  auto out = patch::apply_patch(level_, patch_doc);
  ASSERT_FALSE(out.error) << out.error->message();
  EXPECT_EQ(patch::patched_bytes(level_, out.result), expected);
  // The same with another offset is refused.
  patch_doc[0]["value"]["offset"] = 17;
  auto moved = patch::apply_patch(level_, patch_doc);
  ASSERT_TRUE(moved.error);
  EXPECT_EQ(moved.error->reason, "/objects/0x00000000000004d2/offset: must be 16, where its span starts (found 17)");
}

// Each operation applies to the document the one before it left, holding the value as the patch wrote
// it (RFC 6902 section 3): an id written in uppercase is that string until the end of the patch.
TEST_F(PatchOps, LaterOpsSeeEarlierOnes) {
  load("ac2/lod_selector_slots.bin", Game::ac2);
  std::string path = std::string(kMat) + "/1/replacement";
  auto out = apply("[{\"op\":\"replace\",\"path\":\"" + path + "\",\"value\":\"0x00000000000000AA\"}," +
                   "{\"op\":\"test\",\"path\":\"" + path + "\",\"value\":\"0x00000000000000AA\"}," +
                   "{\"op\":\"replace\",\"path\":\"" + path + "\",\"value\":\"0x00000000000000bb\"}]");
  ASSERT_FALSE(out.error) << out.error->message();
  std::vector<u8> expected = bytes_;
  put<u64>(expected, unique<u64>(0x3333333333333334), 0xbb);
  EXPECT_EQ(patch::patched_bytes(level_, out.result), expected);
  auto lower = apply("[{\"op\":\"replace\",\"path\":\"" + path + "\",\"value\":\"0x00000000000000AA\"}," +
                     "{\"op\":\"test\",\"path\":\"" + path + "\",\"value\":\"0x00000000000000aa\"}]");
  ASSERT_TRUE(lower.error);
  EXPECT_EQ(lower.error->exit_code, patch::kTestFailed);
  EXPECT_EQ(lower.error->message(), "op 1 (" + path +
                                        "): test failed: the value is \"0x00000000000000AA\", not "
                                        "\"0x00000000000000aa\"");
}

// The five LOD slots of a LODSelectorInstance reordered by one RFC 6902 move: a null slot and a slot of
// 322 bytes trade places, and the object keeps its size, so `build` takes the same edit from a dump.
TEST_F(PatchOps, MoveReordersTheLodSlots) {
  load("ac2/lod_selector_slots.bin", Game::ac2);
  std::vector<Object> objects = parse_objects(level_);
  auto& slots = std::get<ac2::LODSelectorInstance>(std::get<ac2::Visual>(objects[0]).instance->body).slots;
  std::rotate(slots.begin(), slots.begin() + 1, slots.end());  // slot 0 goes last
  std::vector<u8> expected = rewritten(objects);
  ASSERT_NE(expected, bytes_);
  const std::string s = "/objects/0x00000000000004d2/instance/slots/";
  EXPECT_EQ(applied("[{\"op\":\"move\",\"from\":\"" + s + "0\",\"path\":\"" + s + "4\"}]"), expected);
  // The same as a remove and an add: the slot array has 4 elements in between, which is no object, but
  // only the document the whole patch leaves is.
  EXPECT_EQ(applied("[{\"op\":\"copy\",\"from\":\"" + s + "0\",\"path\":\"" + s +
                    "-\"},{\"op\":\"remove\",\"path\":\"" + s + "0\"}]"),
            expected);
}

// An object whose JSON does not re-read fails the patch unless a later operation repairs it; the error
// names the operation since which it has failed for that reason.
TEST_F(PatchOps, ABrokenObjectFailsTheOperationThatBrokeIt) {
  load("ac2/direct_mesh.bin", Game::ac2);
  const std::string o = "/objects/0x00000000000004d2";
  auto out = apply("[{\"op\":\"replace\",\"path\":\"" + o + "/active\",\"value\":300}," +
                   "{\"op\":\"replace\",\"path\":\"" + o + "/managed\",\"value\":1}]");
  ASSERT_TRUE(out.error);
  EXPECT_EQ(out.error->message(), "op 0 (" + o + "/active): must be an integer 0..255 (found 300)");
  std::vector<Object> objects = parse_objects(level_);
  std::get<ac2::Visual>(objects[0]).active = 5;
  EXPECT_EQ(applied("[{\"op\":\"remove\",\"path\":\"" + o + "/active\"},{\"op\":\"test\",\"path\":\"" + o +
                    "/managed\",\"value\":0},{\"op\":\"add\",\"path\":\"" + o + "/active\",\"value\":5}]"),
            rewritten(objects));
  // A bulk operation needs the object's model: it fails for the operation that broke it.
  auto bulk = apply("[{\"op\":\"remove\",\"path\":\"" + o + "/active\"},{\"op\":\"transform\",\"objects\":\"*\"," +
                    "\"translate\":[1,2,3]}]");
  ASSERT_TRUE(bulk.error);
  EXPECT_EQ(bulk.error->message(), "op 0 (" + o + "/active): missing field");
}

// After an operation sets an object's id, its key is the new id (as `dump` would key the patched file),
// and the old key names nothing.
TEST_F(PatchOps, KeysFollowIds) {
  load("ac2/back_to_back.bin", Game::ac2);
  std::vector<Object> objects = parse_objects(level_);
  std::get<ac2::Visual>(objects[0]).id.value = 0x99;
  std::get<ac2::Visual>(objects[0]).active = 7;
  auto out = apply(
      "[{\"op\":\"replace\",\"path\":\"/objects/0x00000000000004d2/id\",\"value\":\"0x0000000000000099\"},"
      "{\"op\":\"replace\",\"path\":\"/objects/0x0000000000000099/active\",\"value\":7}]");
  ASSERT_FALSE(out.error) << out.error->message();
  EXPECT_EQ(patch::patched_bytes(level_, out.result), rewritten(objects));
  auto old_key = apply(
      "[{\"op\":\"replace\",\"path\":\"/objects/0x00000000000004d2/id\",\"value\":\"0x0000000000000099\"},"
      "{\"op\":\"replace\",\"path\":\"/objects/0x00000000000004d2/active\",\"value\":7}]");
  ASSERT_TRUE(old_key.error);
  EXPECT_EQ(old_key.error->message(),
            "op 1 (/objects/0x00000000000004d2/active): no object with key \"0x00000000000004d2\" in this file");
  // Two objects share the id 0x4d5, the later keyed "@816". When the first takes another id, the later is
  // the first of its id, keyed by the id alone; given the id back, the first takes the plain key again.
  std::vector<Object> renamed = parse_objects(level_);
  std::get<ac2::Visual>(renamed[3]).id.value = 0x4d6;
  std::get<ac2::Visual>(renamed[4]).managed = 9;
  auto shift = apply(
      "[{\"op\":\"replace\",\"path\":\"/objects/0x00000000000004d5/id\",\"value\":\"0x00000000000004d6\"},"
      "{\"op\":\"replace\",\"path\":\"/objects/0x00000000000004d5/managed\",\"value\":9}]");
  ASSERT_FALSE(shift.error) << shift.error->message();
  EXPECT_EQ(patch::patched_bytes(level_, shift.result), rewritten(renamed));
  auto gone = apply(
      "[{\"op\":\"replace\",\"path\":\"/objects/0x00000000000004d5/id\",\"value\":\"0x00000000000004d6\"},"
      "{\"op\":\"test\",\"path\":\"/objects/0x00000000000004d5@816/managed\",\"value\":0}]");
  ASSERT_TRUE(gone.error);
  EXPECT_EQ(gone.error->reason, "no object with key \"0x00000000000004d5@816\" in this file");
  auto back = apply(
      "[{\"op\":\"replace\",\"path\":\"/objects/0x00000000000004d5/id\",\"value\":\"0x00000000000004d6\"},"
      "{\"op\":\"replace\",\"path\":\"/objects/0x00000000000004d6/id\",\"value\":\"0x00000000000004d5\"},"
      "{\"op\":\"test\",\"path\":\"/objects/0x00000000000004d5@816/managed\",\"value\":" +
      std::to_string(std::get<ac2::Visual>(objects[4]).managed) + "}]");
  EXPECT_FALSE(back.error) << back.error->message();
}

TEST_F(PatchOps, LargeIdsSurviveUnchanged) {
  load("ac2/lod_selector_slots.bin", Game::ac2);
  // mesh_hash 0x0123456789abcdef and the material ids 0x1111111111111111.. are above 2^53: a patch
  // elsewhere in the same object keeps them to the bit, and a patch may set one above 2^53.
  static_assert(0x0123456789abcdefULL > (1ULL << 53));
  std::vector<u8> expected = bytes_;
  std::size_t at = unique<u64>(0x1111111111111112);
  put<u64>(expected, at, 0xfffffffffffffffe);
  expected[unique<u64>(0x3333333333333333) - 1] = 9;
  auto bytes = applied(absl::StrCat("[{\"op\":\"replace\",\"path\":\"", kMat,
                                    "/1/id\",\"value\":\"0xfffffffffffffffe\"},{\"op\":\"replace\",\"path\":\"", kMat,
                                    "/0/mode\",\"value\":9}]"));
  EXPECT_EQ(bytes, expected);
  u64 hash = 0;
  std::memcpy(&hash, bytes.data() + unique<u64>(0x0123456789abcdef), 8);
  EXPECT_EQ(hash, 0x0123456789abcdefULL);
}

TEST_F(PatchOps, NanNegativeZeroAndLargeValuesThroughReplace) {
  load("ac2/float_edges.bin", Game::ac2);
  const std::string m = "/objects/0x00000000000004d2/instance/instances/0/";
  std::vector<Object> objects = parse_objects(level_);
  auto& matrix = std::get<ac2::MeshInstanceData>(std::get<ac2::Visual>(objects[0]).instance->body).instances[0];
  matrix[8] = -0.0f;
  matrix[9] = std::bit_cast<f32>(u32{0x7fa00001});  // a signalling NaN with a payload
  matrix[13] = 3.4028235e38f;
  matrix[14] = 0.1f;
  std::vector<u8> expected = rewritten(objects);
  EXPECT_EQ(
      applied("[{\"op\":\"replace\",\"path\":\"" + m + "8\",\"value\":-0.0}," + "{\"op\":\"replace\",\"path\":\"" + m +
              "9\",\"value\":\"f32:0x7fa00001\"}," + "{\"op\":\"replace\",\"path\":\"" + m +
              "13\",\"value\":3.4028235e38}," + "{\"op\":\"replace\",\"path\":\"" + m + "14\",\"value\":0.1}]"),
      expected);
}

TEST_F(PatchOps, SwsLodSelectorFields) {
  load("sws/lod_selector.bin", Game::sws);
  std::vector<Object> objects = parse_objects(level_);
  auto& second = std::get<sws::LODSelector>(objects[1]);
  second.slots[2].flag = 255;
  second.slots[2].object.value = 0xdeadbeef;
  second.category = 4000000000u;
  std::vector<u8> expected = rewritten(objects);
  EXPECT_EQ(applied("[{\"op\":\"replace\",\"path\":\"/objects/0x00001235/slots/2/flag\",\"value\":255},"
                    "{\"op\":\"replace\",\"path\":\"/objects/0x00001235/slots/2/object\",\"value\":\"0xdeadbeef\"},"
                    "{\"op\":\"replace\",\"path\":\"/objects/0x00001235/category\",\"value\":4000000000}]"),
            expected);
}

TEST_F(PatchOps, PointerEscapes) {
  load("ac2/back_to_back.bin", Game::ac2);
  // The repeated id's key has an "@": no escape needed; "~1" stands for "/" and matches nothing here.
  std::vector<Object> objects = parse_objects(level_);
  std::get<ac2::Visual>(objects[4]).active = 0;
  EXPECT_EQ(applied("[{\"op\":\"replace\",\"path\":\"/objects/0x00000000000004d5@816/active\",\"value\":0}]"),
            rewritten(objects));
  auto out = apply("[{\"op\":\"test\",\"path\":\"/objects/0x00000000000004d5~1816/active\",\"value\":1}]");
  ASSERT_TRUE(out.error);
  EXPECT_EQ(out.error->reason, "no object with key \"0x00000000000004d5/816\" in this file");
  auto bad = apply("[{\"op\":\"test\",\"path\":\"/objects/~2\",\"value\":1}]");
  ASSERT_TRUE(bad.error);
  EXPECT_EQ(bad.error->exit_code, 2);
}

}  // namespace
}  // namespace anvil
