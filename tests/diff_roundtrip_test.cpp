// `diff`: on many generated pairs (every corpus file with random field edits: NaNs, -0.0, large and
// subnormal floats, ids above 2^53, bytes), diff A B applied to A gives B byte for byte, and the same
// patch applied to B fails its first test. Files that do not carve alike are refused with exit 1.
#include <absl/strings/str_format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <random>

#include "patch/diff.hpp"
#include "patch/json_util.hpp"
#include "patch/patch.hpp"
#include "pipeline/patch_output.hpp"
#include "reader/object_json.hpp"
#include "tests/test_support.hpp"
#include "writer/encode.hpp"

namespace anvil {
namespace {

using rapidjson::Value;

// Edits scalar leaves of an object's JSON at random, keeping the edits the object still reads with (a
// u8 field refuses 70000, a checked constant any change: those are undone).
class Mutator {
 public:
  explicit Mutator(unsigned seed) : rng_(seed) {}

  Object mutate(const Object& object, const Piece& piece, Game game) {
    rapidjson::Document doc;
    patch::object_dom(object, piece, doc);
    std::vector<Value*> leaves;
    collect(doc, leaves, true);
    Object current = object;
    std::size_t edits = 1 + rng_() % 6;
    for (std::size_t e = 0; e < edits && !leaves.empty(); ++e) {
      Value* leaf = leaves[rng_() % leaves.size()];
      Value saved(*leaf, doc.GetAllocator());
      change(*leaf, doc.GetAllocator());
      Object next;
      if (read_object_json(doc, game, "", next)) {
        *leaf = saved;  // not a value this field takes
        continue;
      }
      current = next;
    }
    return current;
  }

 private:
  void collect(Value& v, std::vector<Value*>& out, bool top) {
    if (v.IsObject()) {
      for (auto& m : v.GetObject()) {
        std::string_view name(m.name.GetString(), m.name.GetStringLength());
        if (name == "class" || (top && (name == "offset" || name == "length"))) continue;
        collect(m.value, out, false);
      }
    } else if (v.IsArray()) {
      for (auto& item : v.GetArray()) collect(item, out, false);
    } else if (!v.IsNull()) {
      out.push_back(&v);
    }
  }

  void change(Value& v, rapidjson::Document::AllocatorType& alloc) {
    static const char* kFloats[] = {"f32:0x7fc00000", "f32:0x7fa12345", "f32:0xff800000", "f32:0x7f800000",
                                    "f32:0x80000000", "f32:0x00000001", "f32:0x7f7fffff", "f32:0x3dcccccd",
                                    "f32:0xc2f6e979", "f32:0x4b800001"};
    if (v.IsDouble() || (v.IsString() && std::string_view(v.GetString()).starts_with("f32:"))) {
      std::string bits = rng_() % 3 == 0 ? kFloats[rng_() % std::size(kFloats)]
                                         : absl::StrFormat("f32:0x%08x", static_cast<u32>(rng_()));
      v.SetString(bits.c_str(), static_cast<rapidjson::SizeType>(bits.size()), alloc);
    } else if (v.IsNumber()) {
      u64 choices[] = {0, 1, 3, 255, rng_() % 256, rng_() % 65536, 4294967295u, rng_()};
      v.SetUint64(choices[rng_() % std::size(choices)]);
    } else if (v.IsString()) {
      std::string s(v.GetString(), v.GetStringLength());
      std::size_t from = s.starts_with("0x") ? 2 : 0;
      for (std::size_t i = from; i < s.size(); ++i)
        if (rng_() % 3 == 0) s[i] = "0123456789abcdef"[rng_() % 16];
      if (from == 2 && s.size() == 18 && rng_() % 2) s[2] = 'f';  // an id above 2^53
      v.SetString(s.c_str(), static_cast<rapidjson::SizeType>(s.size()), alloc);
    }
  }

  std::mt19937 rng_;
};

// Random edits of `a`'s objects, `seeds` times: each pair's diff, applied to A, gives B exactly; applied
// to B it fails. Returns how many pairs differed.
std::size_t round_trips(const std::vector<u8>& a, Game game, unsigned seeds, const std::string& what) {
  Level la = carve_level(a, game);
  if (la.object_count() == 0) return 0;
  std::size_t changed_pairs = 0;
  for (unsigned seed = 0; seed < seeds; ++seed) {
    Mutator mutator(seed * 7919 + static_cast<unsigned>(a.size()));
    std::vector<Object> objects = parse_objects(la);
    std::size_t k = 0;
    for (const Piece& p : la.pieces) {
      if (!p.is_object()) continue;
      if ((seed + k) % 3 != 2) objects[k] = mutator.mutate(objects[k], p, game);
      ++k;
    }
    std::vector<u8> b = write_level(la, objects);
    EXPECT_EQ(b.size(), a.size());
    Level lb = carve_level(b, game);
    // A mutation may make a new object carve (or an old one not): then the pair is not a diff's input.
    patch::DiffOutcome diff = patch::diff_levels(la, lb);
    if (diff.error) continue;
    std::string text = patch::diff_to_patch_json(diff.ops);
    patch::PatchOutcome out = patch::apply_patch_text(la, text);
    EXPECT_FALSE(out.error) << what << " seed " << seed << ": " << out.error->message() << "\n" << text;
    if (out.error) return changed_pairs;
    EXPECT_TRUE(patch::patched_bytes(la, out.result) == b) << what << " seed " << seed << "\n" << text;
    EXPECT_FALSE(patch::check_written(la, out.result, b));
    if (a != b) {
      ++changed_pairs;
      EXPECT_FALSE(diff.ops.empty());
      // Applied to B, the first test fails (exit 1) -- unless the patch changes an object's id, whose key
      // (the key in A) B then no longer has (exit 2, a pointer to nothing).
      bool changes_an_id = false;
      for (const auto& op : diff.ops)
        changes_an_id =
            changes_an_id || (op.path.ends_with("/id") && std::count(op.path.begin(), op.path.end(), '/') == 3);
      patch::PatchOutcome again = patch::apply_patch_text(lb, text);
      EXPECT_TRUE(again.error);
      if (!again.error) continue;
      if (!changes_an_id) {
        EXPECT_EQ(again.error->exit_code, patch::kTestFailed) << again.error->message();
        EXPECT_EQ(again.error->op_index, 0u);
        EXPECT_TRUE(again.error->reason.starts_with("test failed: ")) << again.error->reason;
      } else {
        EXPECT_NE(again.error->exit_code, 0);
      }
    } else {
      EXPECT_EQ(text, "[]\n");
    }
  }
  return changed_pairs;
}

class DiffRoundTrip : public ::testing::TestWithParam<std::string> {};

TEST_P(DiffRoundTrip, DiffThenPatchGivesTheEditedFile) {
  std::string file = GetParam();
  Game game = file.find("/sws/") != std::string::npos ? Game::sws : Game::ac2;
  std::vector<u8> a = test::read_file(file);
  if (carve_level(a, game).object_count() == 0) GTEST_SKIP() << "no objects";
  EXPECT_GE(round_trips(a, game, 40, file), 20u) << file;
}

// Files of `anvilrt gen` (many objects of every kind the generator makes), several seeds each.
TEST(DiffGenerated, DiffThenPatchGivesTheEditedFile) {
  test::TempDir dir;
  for (const char* game : {"ac2", "sws"})
    for (const char* seed : {"1", "2", "3"}) {
      std::string path = dir.path(std::string(game) + seed + ".bin");
      auto r = test::run_cli({"gen", "--game", game, "--visuals", "60", "--seed", seed, "-o", path});
      ASSERT_EQ(r.exit_code, 0) << r.err;
      std::vector<u8> a = test::read_file(path);
      Game g = *parse_game(game);
      ASSERT_GT(carve_level(a, g).object_count(), 50u);
      EXPECT_GE(round_trips(a, g, 10, path), 8u) << path;
    }
}

INSTANTIATE_TEST_SUITE_P(Corpus, DiffRoundTrip, ::testing::ValuesIn([] {
                           auto files = test::corpus_files("ac2");
                           for (auto& f : test::corpus_files("sws")) files.push_back(f);
                           return files;
                         }()),
                         [](const auto& info) {
                           std::string name = info.param.substr(info.param.rfind("corpus/") + 7);
                           for (char& c : name)
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           return name;
                         });

TEST(Diff, ChangedFieldsInFileOrderWithTests) {
  std::vector<u8> a = test::read_file(test::corpus("sws/lod_selector.bin"));
  Level la = carve_level(a, Game::sws);
  std::vector<Object> objects = parse_objects(la);
  std::get<sws::LODSelector>(objects[1]).slots[0].switch_distance = -0.0f;
  std::get<sws::LODSelector>(objects[0]).slots[4].flag = 7;
  std::get<sws::LODSelector>(objects[0]).slots[2].switch_distance = 0.1f;
  std::vector<u8> b = write_level(la, objects);
  Level lb = carve_level(b, Game::sws);
  auto diff = patch::diff_levels(la, lb);
  ASSERT_FALSE(diff.error);
  EXPECT_EQ(patch::diff_to_patch_json(diff.ops),
            "[\n"
            "  {\"op\": \"test\", \"path\": \"/objects/0x00001234/slots/2/switch_distance\", \"value\": 40},\n"
            "  {\"op\": \"replace\", \"path\": \"/objects/0x00001234/slots/2/switch_distance\", \"value\": 0.1},\n"
            "  {\"op\": \"test\", \"path\": \"/objects/0x00001234/slots/4/flag\", \"value\": 0},\n"
            "  {\"op\": \"replace\", \"path\": \"/objects/0x00001234/slots/4/flag\", \"value\": 7},\n"
            "  {\"op\": \"test\", \"path\": \"/objects/0x00001235/slots/0/switch_distance\", \"value\": 8},\n"
            "  {\"op\": \"replace\", \"path\": \"/objects/0x00001235/slots/0/switch_distance\", \"value\": -0.0}\n"
            "]\n");
}

TEST(Diff, WholeObjectWhenTheShapeChangesAtTheSameLength) {
  // direct_mesh: 2 matrices (128 bytes) and 3 material infos; drop a matrix (-64) and... the sizes of
  // matrices (64) and material infos (41) and bounds (40) never add up on a small edit, so build the
  // shape change from two bounds and a matrix: 40 + 40 - ... Use instance_bounds (40 each) against
  // matrices (64): 8 bounds = 5 matrices = 320 bytes.
  std::vector<u8> a = test::read_file(test::corpus("ac2/direct_mesh.bin"));
  Level la = carve_level(a, Game::ac2);
  std::vector<Object> objects = parse_objects(la);
  auto& mesh = std::get<ac2::MeshInstanceData>(std::get<ac2::Visual>(objects[0]).instance->body);
  // Make A have 5 extra matrices, B 8 extra bounds instead: both the same length.
  std::vector<Object> a_objects = objects, b_objects = objects;
  auto& ma = std::get<ac2::MeshInstanceData>(std::get<ac2::Visual>(a_objects[0]).instance->body);
  auto& mb = std::get<ac2::MeshInstanceData>(std::get<ac2::Visual>(b_objects[0]).instance->body);
  for (int i = 0; i < 5; ++i) ma.instances.push_back(mesh.instances[0]);
  for (int i = 0; i < 8; ++i) mb.instance_bounds.push_back(Opaque<40>{});
  // A level of one Visual, built from bytes.
  std::vector<u8> va, vb;
  encode_object(a_objects[0], va);
  encode_object(b_objects[0], vb);
  ASSERT_EQ(va.size(), vb.size());
  std::vector<u8> fa = {0xaa, 0xbb}, fb = {0xaa, 0xbb};
  fa.insert(fa.end(), va.begin(), va.end());
  fb.insert(fb.end(), vb.begin(), vb.end());
  Level l1 = carve_level(fa, Game::ac2), l2 = carve_level(fb, Game::ac2);
  ASSERT_EQ(l1.object_count(), 1u);
  auto diff = patch::diff_levels(l1, l2);
  ASSERT_FALSE(diff.error) << *diff.error;
  ASSERT_EQ(diff.ops.size(), 1u);
  EXPECT_EQ(diff.ops[0].path, "/objects/0x00000000000004d2");
  auto out = patch::apply_patch_text(l1, patch::diff_to_patch_json(diff.ops));
  ASSERT_FALSE(out.error) << out.error->message();
  EXPECT_TRUE(patch::patched_bytes(l1, out.result) == fb);
}

TEST(Diff, RefusesFilesThatDoNotCarveAlike) {
  test::TempDir dir;
  std::vector<u8> a = test::read_file(test::corpus("ac2/lod_selector_slots.bin"));
  auto run = [&](const std::vector<u8>& b) {
    test::write_file(dir.path("b.bin"), b);
    return test::run_cli({"diff", test::corpus("ac2/lod_selector_slots.bin"), dir.path("b.bin"), "--game", "ac2"});
  };
  std::vector<u8> b = a;
  b[3] ^= 1;  // an opaque byte before the Visual
  auto r = run(b);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(r.err, "anvilrt: " + test::corpus("ac2/lod_selector_slots.bin") + " and " + dir.path("b.bin") +
                       ": opaque bytes differ at offset 0x3\n");
  EXPECT_TRUE(r.out.empty());
  b = a;
  b.push_back(0);
  r = run(b);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("the files have different sizes (807 and 808 bytes)"), std::string::npos);
  b = a;
  b[14 + 8] ^= 0xff;  // the Visual class id: no object any more
  r = run(b);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("carve"), std::string::npos) << r.err;
  r = run(a);
  EXPECT_EQ(r.exit_code, 0);
  EXPECT_EQ(r.out, "[]\n");
  r = test::run_cli({"diff", test::corpus("ac2/lod_selector_slots.bin"), dir.path("missing.bin")});
  EXPECT_EQ(r.exit_code, 2);
}

TEST(Diff, CliDiffThenPatch) {
  test::TempDir dir;
  std::string a = test::corpus("ac2/float_edges.bin");
  std::vector<u8> bytes = test::read_file(a);
  Level level = carve_level(bytes, Game::ac2);
  std::vector<Object> objects = parse_objects(level);
  auto& m = std::get<ac2::MeshInstanceData>(std::get<ac2::Visual>(objects[0]).instance->body).instances[0];
  m[0] = 0.0f;                                 // was -0.0
  m[2] = std::bit_cast<f32>(u32{0x7fc00000});  // was NaN 0x7fc12345
  m[7] = -3.4028235e38f;
  std::vector<u8> b = write_level(level, objects);
  test::write_file(dir.path("b.bin"), b);
  auto d = test::run_cli({"diff", a, dir.path("b.bin"), "--game", "ac2"});
  ASSERT_EQ(d.exit_code, 0) << d.err;
  std::string prefix = "/objects/0x00000000000004d2/instance/instances/0/";
  EXPECT_EQ(d.out, "[\n  {\"op\": \"test\", \"path\": \"" + prefix + "0\", \"value\": -0.0},\n" +
                       "  {\"op\": \"replace\", \"path\": \"" + prefix + "0\", \"value\": 0},\n" +
                       "  {\"op\": \"test\", \"path\": \"" + prefix + "2\", \"value\": \"f32:0x7fc12345\"},\n" +
                       "  {\"op\": \"replace\", \"path\": \"" + prefix + "2\", \"value\": \"f32:0x7fc00000\"},\n" +
                       "  {\"op\": \"test\", \"path\": \"" + prefix + "7\", \"value\": 3.4028235e+38},\n" +
                       "  {\"op\": \"replace\", \"path\": \"" + prefix + "7\", \"value\": -3.4028235e+38}\n]\n");
  test::write_file(dir.path("d.json"), {reinterpret_cast<const u8*>(d.out.data()), d.out.size()});
  auto p = test::run_cli({"patch", a, dir.path("d.json"), "-o", dir.path("c.bin"), "--game", "ac2"});
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_TRUE(test::read_file(dir.path("c.bin")) == b);
}

}  // namespace
}  // namespace anvil
