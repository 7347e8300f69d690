// The bulk operations of FORMAT.md section 5, with their exact arithmetic, asserted on bytes.
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

class PatchBulk : public ::testing::Test {
 protected:
  void load(const std::string& relative, Game game) {
    bytes_ = test::read_file(test::corpus(relative));
    level_ = carve_level(bytes_, game);
    objects_ = parse_objects(level_);
  }
  patch::PatchOutcome apply(const std::string& text) { return patch::apply_patch_text(level_, text); }
  std::vector<u8> applied(const std::string& text) {
    auto out = apply(text);
    EXPECT_FALSE(out.error) << out.error->message();
    if (out.error) return {};
    std::vector<u8> bytes = patch::patched_bytes(level_, out.result);
    EXPECT_FALSE(patch::check_written(level_, out.result, bytes));
    return bytes;
  }
  int code(const std::string& text) {
    auto out = apply(text);
    return out.error ? out.error->exit_code : 0;
  }
  std::vector<u8> expected() { return write_level(level_, objects_); }
  ac2::Visual& visual(std::size_t i) { return std::get<ac2::Visual>(objects_[i]); }
  sws::LODSelector& selector(std::size_t i) { return std::get<sws::LODSelector>(objects_[i]); }

  std::vector<u8> bytes_;
  Level level_;
  std::vector<Object> objects_;
};

// --- swap_material ---

TEST_F(PatchBulk, SwapMaterialEveryMatchingInfo) {
  load("ac2/lod_selector_slots.bin", Game::ac2);
  auto& lod = std::get<ac2::LODSelectorInstance>(visual(0).instance->body);
  auto& mats = std::get<ac2::MeshInstanceData>(lod.slots[1]->body).materials;
  ASSERT_EQ(mats[0].replacement.value, 0x3333333333333333u);
  mats[0].replacement.value = 0x9999999999999999;
  EXPECT_EQ(applied("[{\"op\":\"swap_material\",\"from\":\"0x3333333333333333\",\"to\":\"0x9999999999999999\"}]"),
            expected());
}

TEST_F(PatchBulk, SwapMaterialWithSourceModeAndObjects) {
  load("ac2/lod_selector_slots.bin", Game::ac2);
  auto& lod = std::get<ac2::LODSelectorInstance>(visual(0).instance->body);
  auto& mats = std::get<ac2::MeshInstanceData>(lod.slots[1]->body).materials;
  mats[1].replacement.value = 0x0000000000000001;
  mats[1].mode = 1;
  EXPECT_EQ(applied("[{\"op\":\"swap_material\",\"from\":\"0x3333333333333334\",\"to\":\"0x0000000000000001\","
                    "\"source\":\"0x2222222222222223\",\"mode\":1,\"objects\":[\"0x00000000000004d2\"]}]"),
            expected());
  // Another source: nothing matches, exit 1.
  EXPECT_EQ(code("[{\"op\":\"swap_material\",\"from\":\"0x3333333333333334\",\"to\":\"0x0000000000000001\","
                 "\"source\":\"0x2222222222222222\"}]"),
            1);
}

TEST_F(PatchBulk, SwapMaterialInADirectMesh) {
  load("ac2/direct_mesh.bin", Game::ac2);
  auto& mats = std::get<ac2::MeshInstanceData>(visual(0).instance->body).materials;
  ASSERT_EQ(mats.size(), 3u);
  u64 from = mats[2].replacement.value;
  std::size_t count = 0;
  for (auto& m : mats)
    if (m.replacement.value == from) m.replacement.value = 0x0abcdef012345678, ++count;
  ASSERT_GE(count, 1u);
  char op[200];
  std::snprintf(op, sizeof op, "[{\"op\":\"swap_material\",\"from\":\"0x%016llx\",\"to\":\"0x0abcdef012345678\"}]",
                static_cast<unsigned long long>(from));
  EXPECT_EQ(applied(op), expected());
}

TEST_F(PatchBulk, SwapMaterialErrors) {
  load("ac2/lod_selector_slots.bin", Game::ac2);
  EXPECT_EQ(code("[{\"op\":\"swap_material\",\"from\":\"0x0000000000000042\",\"to\":\"0x0000000000000001\"}]"), 1);
  EXPECT_EQ(code("[{\"op\":\"swap_material\",\"from\":\"0x42\",\"to\":\"0x0000000000000001\"}]"), 2);
  EXPECT_EQ(code("[{\"op\":\"swap_material\",\"from\":\"0x3333333333333333\"}]"), 2);
  EXPECT_EQ(code("[{\"op\":\"swap_material\",\"from\":\"0x3333333333333333\",\"to\":\"0x0000000000000001\","
                 "\"mode\":256}]"),
            2);
  EXPECT_EQ(code("[{\"op\":\"swap_material\",\"from\":\"0x3333333333333333\",\"to\":\"0x0000000000000001\","
                 "\"objects\":[\"0x0000000000000bad\"]}]"),
            2);
  EXPECT_EQ(code("[{\"op\":\"swap_material\",\"form\":\"0x3333333333333333\",\"to\":\"0x0000000000000001\"}]"), 2);
  load("sws/lod_selector.bin", Game::sws);
  auto out = apply("[{\"op\":\"swap_material\",\"from\":\"0x3333333333333333\",\"to\":\"0x0000000000000001\"}]");
  ASSERT_TRUE(out.error);
  EXPECT_EQ(out.error->exit_code, 2);
  EXPECT_EQ(out.error->message(), "op 0 (swap_material): swap_material is an ac2 operation (this file is sws)");
}

// --- transform ---

TEST_F(PatchBulk, TranslateMovesEveryLodLevelTogether) {
  load("ac2/lod_selector_slots.bin", Game::ac2);
  auto& lod = std::get<ac2::LODSelectorInstance>(visual(0).instance->body);
  // Literal results: (10, 20, 30) + (1.5, 0.1f, -2) and (-1.5, 0.25, 100) + the same.
  lod.instances[0][12] = 11.5f;
  lod.instances[0][13] = 20.1f;  // 20 + 0.1f rounds to the f32 nearest 20.1
  lod.instances[0][14] = 28.0f;
  auto& slot1 = std::get<ac2::MeshInstanceData>(lod.slots[1]->body).instances[0];
  slot1[12] = 0.0f;
  slot1[13] = 0.35f;
  slot1[14] = 98.0f;
  EXPECT_EQ(20.0f + 0.1f, 20.1f);
  EXPECT_EQ(0.25f + 0.1f, 0.35f);
  EXPECT_EQ(applied("[{\"op\":\"transform\",\"objects\":[\"0x00000000000004d2\"],\"translate\":[1.5,0.1,-2]}]"),
            expected());
}

TEST_F(PatchBulk, TranslateKeepsNansAndInfinitiesElsewhere) {
  load("ac2/float_edges.bin", Game::ac2);
  auto& m = std::get<ac2::MeshInstanceData>(visual(0).instance->body).instances[0];
  m[12] = m[12] + 1.0f;
  m[13] = m[13] + 0.5f;
  m[14] = m[14] + -0.0f;
  std::vector<u8> want = expected();
  std::vector<u8> got =
      applied("[{\"op\":\"transform\",\"objects\":[\"0x00000000000004d2\"],\"translate\":[1,0.5,-0.0]}]");
  EXPECT_EQ(got, want);
  // Only the translation floats changed; the NaN payloads and infinities around them are the same bytes.
  std::size_t differing = 0;
  for (std::size_t i = 0; i < got.size() && got.size() == bytes_.size(); ++i) differing += got[i] != bytes_[i];
  EXPECT_GE(differing, 2u);
  EXPECT_LE(differing, 8u);
}

TEST_F(PatchBulk, TransformTakesEveryObject) {
  load("ac2/back_to_back.bin", Game::ac2);
  std::string named = "[{\"op\":\"transform\",\"objects\":[";
  for (std::size_t i = 0; i < level_.pieces.size(); ++i)
    if (level_.pieces[i].is_object())
      named += (named.back() == '[' ? "\"" : ",\"") + object_key(level_.pieces[i], Game::ac2) + "\"";
  named += "],\"translate\":[1,2,3]}]";
  auto all = apply("[{\"op\":\"transform\",\"objects\":\"*\",\"translate\":[1,2,3]}]");
  auto listed = apply(named);
  ASSERT_EQ(all.error.has_value(), listed.error.has_value());
  if (all.error) {
    EXPECT_EQ(all.error->exit_code, listed.error->exit_code);
  } else {
    EXPECT_EQ(patch::patched_bytes(level_, all.result), patch::patched_bytes(level_, listed.result));
  }
  load("ac2/lod_selector_slots.bin", Game::ac2);
  EXPECT_EQ(applied("[{\"op\":\"transform\",\"objects\":\"*\",\"translate\":[1.5,0.1,-2]}]"),
            applied("[{\"op\":\"transform\",\"objects\":[\"0x00000000000004d2\"],\"translate\":[1.5,0.1,-2]}]"));
  EXPECT_NE(applied("[{\"op\":\"transform\",\"objects\":\"*\",\"translate\":[1.5,0.1,-2]}]"), bytes_);
}

// A bulk operation never writes a NaN or an infinity: a non-finite operand or result is refused, naming
// the operation and, for a result, the object and the field.
TEST_F(PatchBulk, NonFiniteOperandsAndResultsAreRefused) {
  auto message = [&](const std::string& text) {
    auto out = apply(text);
    EXPECT_TRUE(out.error) << text;
    if (!out.error) return std::string();
    EXPECT_EQ(out.error->exit_code, 2) << text;
    return out.error->message();
  };
  load("ac2/float_edges.bin", Game::ac2);
  EXPECT_EQ(message("[{\"op\":\"transform\",\"objects\":\"*\",\"translate\":[1,\"f32:0x7fc00001\",0]}]"),
            "op 0 (transform): \"translate/1\" must be finite (found \"f32:0x7fc00001\")");
  EXPECT_EQ(
      message("[{\"op\":\"replace\",\"path\":\"/objects/0x00000000000004d2/instance/instances/0/12\","
              "\"value\":3.4028235e38},{\"op\":\"transform\",\"objects\":\"*\",\"translate\":[3.4028235e38,0,0]}]"),
      "op 1 (transform): /objects/0x00000000000004d2/instance/instances/0/12: 3.4028235e+38 + 3.4028235e+38 is "
      "not finite");
  // Column 0 of the stored matrix holds NaNs: any product with it is NaN.
  EXPECT_EQ(message("[{\"op\":\"transform\",\"objects\":\"*\",\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}]"),
            "op 0 (transform): /objects/0x00000000000004d2/instance/instances/0/0: the product is not finite");
  load("sws/lod_selector.bin", Game::sws);
  EXPECT_EQ(message("[{\"op\":\"set_switch_distance\",\"objects\":\"*\",\"value\":\"f32:0x7f800000\"}]"),
            "op 0 (set_switch_distance): \"value\" must be finite (found \"f32:0x7f800000\")");
  EXPECT_EQ(message("[{\"op\":\"scale_switch_distance\",\"objects\":\"*\",\"factor\":\"f32:0xffc00000\"}]"),
            "op 0 (scale_switch_distance): \"factor\" must be finite (found \"f32:0xffc00000\")");
  EXPECT_EQ(message("[{\"op\":\"set_switch_distance\",\"objects\":[\"0x00001235\"],\"slot\":0,\"value\":3e38},"
                    "{\"op\":\"scale_switch_distance\",\"objects\":[\"0x00001235\"],\"slot\":0,\"factor\":10}]"),
            "op 1 (scale_switch_distance): /objects/0x00001235/slots/0/switch_distance: 3e+38 × 10 is not finite");
}

// R = A x M, column-major, each element the double sum over k = 0..3 in order, rounded once.
Matrix reference_product(const Matrix& a, const Matrix& m) {
  Matrix r{};
  for (int row = 0; row < 4; ++row)
    for (int col = 0; col < 4; ++col) {
      double s = double(a[0 * 4 + row]) * double(m[col * 4 + 0]);
      s = s + double(a[1 * 4 + row]) * double(m[col * 4 + 1]);
      s = s + double(a[2 * 4 + row]) * double(m[col * 4 + 2]);
      s = s + double(a[3 * 4 + row]) * double(m[col * 4 + 3]);
      r[col * 4 + row] = static_cast<float>(s);
    }
  return r;
}

TEST_F(PatchBulk, MatrixProductInDoubleRoundedOnce) {
  load("ac2/direct_mesh.bin", Game::ac2);
  auto& instances = std::get<ac2::MeshInstanceData>(visual(0).instance->body).instances;
  ASSERT_EQ(instances.size(), 2u);
  // A row 0 = (1, 1, 1, 0): with M's column 0 = (16777216, 1, 1, .) the double sum is 16777218 (an f32),
  // where f32 accumulation would give 16777216.
  Matrix a = {1, 0, 0, 0, 1, 1, 0, 0, 1, 0, 0.5f, 0, 0, 0, 0, 1};
  // First put 16777216 into M[0] with a replace, then transform.
  instances[0][0] = 16777216.0f;
  instances[0][1] = 1.0f;
  instances[0][2] = 1.0f;
  for (auto& m : instances) m = reference_product(a, m);
  EXPECT_EQ(instances[0][0], 16777218.0f);
  std::string matrix = "[1,0,0,0,1,1,0,0,1,0,0.5,0,0,0,0,1]";
  EXPECT_EQ(applied("[{\"op\":\"replace\",\"path\":\"/objects/0x00000000000004d2/instance/instances/0/0\","
                    "\"value\":16777216},"
                    "{\"op\":\"replace\",\"path\":\"/objects/0x00000000000004d2/instance/instances/0/1\",\"value\":1},"
                    "{\"op\":\"replace\",\"path\":\"/objects/0x00000000000004d2/instance/instances/0/2\",\"value\":1},"
                    "{\"op\":\"transform\",\"objects\":[\"0x00000000000004d2\"],\"matrix\":" +
                    matrix + "}]"),
            expected());
}

TEST_F(PatchBulk, TransformErrors) {
  load("ac2/back_to_back.bin", Game::ac2);
  // The first Visual has no instance: no matrix to move.
  EXPECT_EQ(code("[{\"op\":\"transform\",\"objects\":[\"0x00000000000004d2\"],\"translate\":[1,2,3]}]"), 1);
  // A LODSelectorInstance with k=0 and empty slots: none either.
  EXPECT_EQ(code("[{\"op\":\"transform\",\"objects\":[\"0x00000000000004d3\"],\"translate\":[1,2,3]}]"), 1);
  EXPECT_EQ(code("[{\"op\":\"transform\",\"objects\":[\"0x00000000000004d3\"],\"translate\":[1,2]}]"), 2);
  EXPECT_EQ(code("[{\"op\":\"transform\",\"objects\":[\"0x00000000000004d3\"]}]"), 2);
  EXPECT_EQ(code("[{\"op\":\"transform\",\"objects\":[\"0x00000000000004d3\"],\"translate\":[1,2,3],"
                 "\"matrix\":[1,0,0,0,0,1,0,0,0,0,1,0,0,0,0,1]}]"),
            2);
  EXPECT_EQ(code("[{\"op\":\"transform\",\"translate\":[1,2,3]}]"), 2);
  // No Visual of this file has an instance matrix.
  EXPECT_EQ(code("[{\"op\":\"transform\",\"objects\":\"*\",\"translate\":[1,2,3]}]"), 1);
  EXPECT_EQ(code("[{\"op\":\"transform\",\"objects\":[\"0x00000000000004d3\",\"0x00000000000004d3\"],"
                 "\"translate\":[1,2,3]}]"),
            2);
  EXPECT_EQ(code("[{\"op\":\"transform\",\"objects\":[\"0x00000000000004d3\"],\"translate\":[1,2,1e40]}]"), 2);
}

// --- switch distances ---

TEST_F(PatchBulk, SetSwitchDistanceOnUsedSlots) {
  load("sws/lod_selector.bin", Game::sws);
  for (std::size_t s : {0u, 1u})
    for (auto& slot : selector(s).slots)
      if (slot.object.value != 0) slot.switch_distance = 12.5f;
  EXPECT_EQ(applied("[{\"op\":\"set_switch_distance\",\"objects\":\"*\",\"value\":12.5}]"), expected());
}

TEST_F(PatchBulk, SetSwitchDistanceOfOneSlotUsedOrNot) {
  load("sws/lod_selector.bin", Game::sws);
  ASSERT_EQ(selector(0).slots[3].object.value, 0u);
  selector(0).slots[3].switch_distance = -0.0f;
  EXPECT_EQ(applied("[{\"op\":\"set_switch_distance\",\"objects\":[\"0x00001234\"],\"slot\":3,\"value\":-0.0}]"),
            expected());
}

TEST_F(PatchBulk, SetSwitchDistanceLargeAndNegativeZero) {
  load("sws/lod_selector.bin", Game::sws);
  selector(1).slots[4].switch_distance = -0.0f;
  selector(1).slots[0].switch_distance = 3.4028235e38f;
  EXPECT_EQ(applied("[{\"op\":\"set_switch_distance\",\"objects\":[\"0x00001235\"],\"slot\":4,\"value\":\"f32:"
                    "0x80000000\"},"
                    "{\"op\":\"set_switch_distance\",\"objects\":[\"0x00001235\"],\"slot\":0,\"value\":3.4028235e38}]"),
            expected());
}

TEST_F(PatchBulk, ScaleSwitchDistanceIsTheF32Product) {
  load("sws/lod_selector.bin", Game::sws);
  const f32 factor = 1.1f;
  for (std::size_t s : {0u, 1u})
    for (auto& slot : selector(s).slots)
      if (slot.object.value != 0) slot.switch_distance = slot.switch_distance * factor;
  EXPECT_EQ(selector(1).slots[2].switch_distance, 32.5f * 1.1f);
  EXPECT_EQ(applied("[{\"op\":\"scale_switch_distance\",\"objects\":[\"0x00001234\",\"0x00001235\"],\"factor\":1.1}]"),
            expected());
}

TEST_F(PatchBulk, ScaleSwitchDistanceSkipsVisualsUnderStar) {
  load("sws/visual_lod_selector_instance.bin", Game::sws);
  for (auto& slot : selector(0).slots)
    if (slot.object.value != 0) slot.switch_distance = slot.switch_distance * 2.0f;
  EXPECT_EQ(applied("[{\"op\":\"scale_switch_distance\",\"objects\":\"*\",\"factor\":2}]"), expected());
  auto out = apply("[{\"op\":\"scale_switch_distance\",\"objects\":[\"0x00005678\"],\"factor\":2}]");
  ASSERT_TRUE(out.error);
  EXPECT_EQ(out.error->exit_code, 2);
  EXPECT_EQ(out.error->reason, "/objects/0x00005678 is a Visual, not a LODSelector");
}

TEST_F(PatchBulk, SwitchDistanceErrors) {
  load("sws/lod_selector.bin", Game::sws);
  EXPECT_EQ(code("[{\"op\":\"set_switch_distance\",\"objects\":[],\"value\":1}]"), 1);
  EXPECT_EQ(code("[{\"op\":\"set_switch_distance\",\"objects\":\"*\",\"slot\":5,\"value\":1}]"), 2);
  EXPECT_EQ(code("[{\"op\":\"set_switch_distance\",\"objects\":\"*\"}]"), 2);
  EXPECT_EQ(code("[{\"op\":\"set_switch_distance\",\"value\":1}]"), 2);
  EXPECT_EQ(code("[{\"op\":\"scale_switch_distance\",\"objects\":\"*\",\"factor\":\"big\"}]"), 2);
  EXPECT_EQ(code("[{\"op\":\"scale_switch_distance\",\"objects\":\"*\",\"factor\":1,\"value\":2}]"), 2);
  load("ac2/direct_mesh.bin", Game::ac2);
  EXPECT_EQ(code("[{\"op\":\"set_switch_distance\",\"objects\":\"*\",\"value\":1}]"), 2);
}

TEST_F(PatchBulk, BulkAndPointerOpsCompose) {
  load("sws/lod_selector.bin", Game::sws);
  selector(0).slots[1].switch_distance = 5.0f * 3.0f + 0.0f;
  selector(0).slots[1].switch_distance = 7.0f * 3.0f;
  selector(0).slots[0].switch_distance = 10.0f * 3.0f;
  selector(0).slots[2].switch_distance = 40.0f * 3.0f;
  for (auto& slot : selector(1).slots) slot.switch_distance = slot.switch_distance * 3.0f;
  EXPECT_EQ(applied("[{\"op\":\"replace\",\"path\":\"/objects/0x00001234/slots/1/switch_distance\",\"value\":7},"
                    "{\"op\":\"scale_switch_distance\",\"objects\":\"*\",\"factor\":3},"
                    "{\"op\":\"test\",\"path\":\"/objects/0x00001234/slots/1/switch_distance\",\"value\":21}]"),
            expected());
}

}  // namespace
}  // namespace anvil
