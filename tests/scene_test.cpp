// `anvilrt export` and `anvilrt import` (scene/, docs/blender.md) through the real binary: the scene's
// structure against `dump`, the untouched round trip (`[]`) on every corpus file that places instances
// and on generated inputs, nodes moved, deleted and duplicated through tinygltf becoming the operations
// that `anvilrt patch` applies, and the refusals. Blender itself: tests/blender/.
#include <absl/strings/str_cat.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <functional>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "platform/paths.hpp"
#include "scene/axes.hpp"
#include "scene/gltf.hpp"
#include "scene/import_scene.hpp"
#include "tests/game_folder_support.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

using ::testing::HasSubstr;

tinygltf::Model read_model(const std::string& path) {
  const std::vector<u8> bytes = test::read_file(path);
  auto model = scene::read_scene(bytes, path);
  EXPECT_TRUE(model.ok()) << model.status();
  return model.ok() ? std::move(*model) : tinygltf::Model();
}

void write_model(const tinygltf::Model& model, const std::string& path) {
  std::ostringstream out;
  tinygltf::TinyGLTF gltf;
  ASSERT_TRUE(gltf.WriteGltfSceneToStream(&model, out, false, true));
  const std::string bytes = out.str();
  test::write_file(path, {reinterpret_cast<const u8*>(bytes.data()), bytes.size()});
}

std::string exported(const test::TempDir& dir, const std::string& target, const std::string& name = "scene.glb") {
  const std::string out = dir.path(name);
  auto r = test::run_cli({"export", target, "-o", out});
  EXPECT_EQ(r.exit_code, 0) << target << ": " << r.err;
  return out;
}

test::CliResult import_to(const std::string& scene, const std::string& target, const std::string& patch) {
  return test::run_cli({"import", scene, "--onto", target, "-o", patch});
}

// The nodes whose extras name an instance.
std::vector<int> instance_nodes(const tinygltf::Model& model) {
  std::vector<int> out;
  for (std::size_t i = 0; i < model.nodes.size(); ++i)
    if (model.nodes[i].extras.IsObject() && model.nodes[i].extras.Has("index")) out.push_back(static_cast<int>(i));
  return out;
}

int parent_of(const tinygltf::Model& model, int node) {
  for (std::size_t i = 0; i < model.nodes.size(); ++i)
    for (int c : model.nodes[i].children)
      if (c == node) return static_cast<int>(i);
  return -1;
}

std::string extra(const tinygltf::Node& node, const char* member) { return node.extras.Get(member).Get<std::string>(); }

// The object of `key` in a dump (of a level file, data file or archive).
const rapidjson::Value* dump_object(const rapidjson::Document& dump, const std::string& datafile,
                                    const std::string& key) {
  const rapidjson::Value& objects =
      dump.HasMember("datafiles") ? dump["datafiles"][datafile.c_str()]["objects"] : dump["objects"];
  auto it = objects.FindMember(key.c_str());
  return it == objects.MemberEnd() ? nullptr : &it->value;
}

// Every instance matrix a dump holds in a Visual's own list: (datafile, key, index) -> finite or not.
std::map<std::tuple<std::string, std::string, int>, bool> dump_instances(const rapidjson::Document& dump) {
  std::map<std::tuple<std::string, std::string, int>, bool> out;
  auto objects_of = [&](const std::string& datafile, const rapidjson::Value& objects) {
    for (auto o = objects.MemberBegin(); o != objects.MemberEnd(); ++o) {
      if (!o->value.HasMember("instance") || !o->value["instance"].IsObject()) continue;
      const rapidjson::Value& instance = o->value["instance"];
      if (!instance.HasMember("instances")) continue;
      for (rapidjson::SizeType i = 0; i < instance["instances"].Size(); ++i) {
        bool finite = true;
        for (const auto& v : instance["instances"][i].GetArray()) finite = finite && v.IsNumber();
        out[{datafile, o->name.GetString(), static_cast<int>(i)}] = finite;
      }
    }
  };
  if (dump.HasMember("datafiles"))
    for (auto d = dump["datafiles"].MemberBegin(); d != dump["datafiles"].MemberEnd(); ++d)
      objects_of(d->name.GetString(), d->value["objects"]);
  else
    objects_of("", dump["objects"]);
  return out;
}

// The corpus files (level files and archives) whose Visuals place instances.
std::vector<std::string> files_with_instances() {
  std::vector<std::string> candidates = test::corpus_files("ac2"), sws = test::corpus_files("sws");
  candidates.insert(candidates.end(), sws.begin(), sws.end());
  for (const auto& entry : std::filesystem::directory_iterator(platform::path_of(test::corpus("forge"))))
    if (entry.path().extension() == ".forge")
      candidates.push_back(test::corpus("forge/" + platform::utf8_of(entry.path().filename())));
  std::vector<std::string> out;
  for (const std::string& f : candidates) {
    auto dump = test::run_cli({"dump", f});
    if (dump.exit_code != 0) continue;
    if (!dump_instances(test::parse_json(dump.out)).empty()) out.push_back(f);
  }
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Scene, ExportHasANodePerInstanceNamedAndPlacedAsDumpSaysExactly) {
  const std::vector<std::string> files = files_with_instances();
  ASSERT_GE(files.size(), 9u);
  for (const std::string& file : files) {
    SCOPED_TRACE(file);
    test::TempDir dir;
    const tinygltf::Model model = read_model(exported(dir, file));
    const rapidjson::Document dump = test::parse_json(test::run_cli({"dump", file}).out);
    auto expected = dump_instances(dump);
    std::size_t finite = 0;
    for (const auto& [where, ok] : expected) finite += ok;
    const std::vector<int> nodes = instance_nodes(model);
    EXPECT_EQ(nodes.size(), finite);
    std::set<std::tuple<std::string, std::string, int>> seen;
    for (int n : nodes) {
      const tinygltf::Node& node = model.nodes[static_cast<std::size_t>(n)];
      const std::string key = extra(node, "key"), datafile = extra(node, "datafile");
      const int index = node.extras.Get("index").Get<int>();
      EXPECT_EQ(node.name, key + "/" + std::to_string(index));
      EXPECT_TRUE(expected.count({datafile, key, index})) << node.name;
      EXPECT_TRUE(seen.insert({datafile, key, index}).second) << node.name;
      EXPECT_EQ(extra(node, "archive"),
                dump.HasMember("datafiles") ? std::filesystem::path(file).filename().string() : std::string());
      EXPECT_EQ(node.mesh, 0);
      // Under its Visual's node, which is a root of the scene and names the same object.
      const int parent = parent_of(model, n);
      ASSERT_GE(parent, 0);
      EXPECT_EQ(model.nodes[static_cast<std::size_t>(parent)].name, key);
      // Its matrix, back in the engine's frame, is the dump's bit for bit.
      ASSERT_EQ(node.matrix.size(), 16u);
      scene::Matrix4d g{};
      std::copy(node.matrix.begin(), node.matrix.end(), g.begin());
      const scene::Matrix4d m = scene::to_engine(g);
      const rapidjson::Value& stored = (*dump_object(dump, datafile, key))["instance"]["instances"][index];
      for (rapidjson::SizeType e = 0; e < 16; ++e) {
        const f32 want = static_cast<f32>(stored[e].GetDouble()), got = static_cast<f32>(m[e]);
        EXPECT_EQ(std::memcmp(&want, &got, 4), 0) << node.name << " element " << e << ": " << got << " vs " << want;
        EXPECT_EQ(static_cast<double>(got), m[e]);  // glTF held the f32 exactly
      }
      // The frame: glTF's y is the engine's z, glTF's z the engine's -y.
      EXPECT_EQ(g[13], m[14]);
      EXPECT_EQ(g[14], -m[13]);
    }
  }
}

TEST(Scene, UntouchedRoundTripIsAnEmptyPatchOnEveryInput) {
  std::vector<std::string> targets = files_with_instances();
  test::TempDir dir;
  const std::string level = dir.path("gen.bin"), forge = dir.path("gen.forge"), folder = dir.path("game");
  ASSERT_EQ(test::run_cli({"gen", "--game", "ac2", "--visuals", "300", "-q", "-o", level}).exit_code, 0);
  ASSERT_EQ(test::run_cli({"gen", "--game", "sws", "--visuals", "200", "--forge", "-q", "-o", forge}).exit_code, 0);
  test::generate_game_folder(folder, "ac2", {"a.forge", "b.forge"}, {3, 4}, 2, 40);
  targets.insert(targets.end(), {level, forge, folder});
  for (const std::string& target : targets) {
    SCOPED_TRACE(target);
    for (const char* name : {"scene.glb", "scene.gltf"}) {
      const std::string scene = exported(dir, target, name), patch = dir.path("patch.json");
      auto r = import_to(scene, target, patch);
      ASSERT_EQ(r.exit_code, 0) << r.err;
      EXPECT_EQ(test::read_text(patch), "[]\n");
      EXPECT_THAT(r.out, HasSubstr("0 operations (0 moved, 0 added, 0 removed)"));
    }
  }
}

// A node's engine matrix element (glTF frame converted back).
double engine_element(const tinygltf::Node& node, int e) {
  scene::Matrix4d g{};
  std::copy(node.matrix.begin(), node.matrix.end(), g.begin());
  return scene::to_engine(g)[static_cast<std::size_t>(e)];
}

// Three instance nodes of three different Visuals whose own lists are LODSelectorInstances with no LOD slot
// list of the same count (so only the own list changes), from the dump.
std::vector<int> three_lone_lists(const tinygltf::Model& model, const rapidjson::Document& dump) {
  std::vector<int> out;
  std::set<std::string> visuals;
  for (int n : instance_nodes(model)) {
    const tinygltf::Node& node = model.nodes[static_cast<std::size_t>(n)];
    const std::string key = extra(node, "key");
    const rapidjson::Value& instance = (*dump_object(dump, extra(node, "datafile"), key))["instance"];
    if (!instance.HasMember("slots") || visuals.count(key)) continue;
    bool alone = true;
    for (const auto& slot : instance["slots"].GetArray())
      if (slot.IsObject() && slot.HasMember("instances") && slot["instances"].Size() == instance["instances"].Size())
        alone = false;
    if (!alone) continue;
    visuals.insert(key);
    out.push_back(n);
    if (out.size() == 3) break;
  }
  return out;
}

const rapidjson::Value& own_list(const rapidjson::Document& dump, const tinygltf::Node& node) {
  return (*dump_object(dump, extra(node, "datafile"), extra(node, "key")))["instance"]["instances"];
}

TEST(Scene, MovedDeletedAndDuplicatedNodesBecomeOpsThatPatchApplies) {
  test::TempDir dir;
  const std::string forge = dir.path("level.forge");
  ASSERT_EQ(
      test::run_cli({"gen", "--game", "ac2", "--visuals", "80", "--forge", "--seed", "7", "-q", "-o", forge}).exit_code,
      0);
  const rapidjson::Document before = test::parse_json(test::run_cli({"dump", forge}).out);
  tinygltf::Model model = read_model(exported(dir, forge));
  const std::vector<int> chosen = three_lone_lists(model, before);
  ASSERT_EQ(chosen.size(), 3u);
  const int moved = chosen[0], deleted = chosen[1], copied = chosen[2];
  // Moved 2 along glTF's x (the engine's x) and 3 along glTF's y (the engine's z).
  model.nodes[static_cast<std::size_t>(moved)].matrix[12] += 2;
  model.nodes[static_cast<std::size_t>(moved)].matrix[13] += 3;
  // Deleted: no longer in the scene.
  auto& siblings = model.nodes[static_cast<std::size_t>(parent_of(model, deleted))].children;
  siblings.erase(std::find(siblings.begin(), siblings.end(), deleted));
  // Duplicated with its extras, as Blender does, the copy 5 along glTF's z (the engine's -y).
  tinygltf::Node copy = model.nodes[static_cast<std::size_t>(copied)];
  copy.name += ".001";
  copy.matrix[14] += 5;
  model.nodes[static_cast<std::size_t>(parent_of(model, copied))].children.push_back(
      static_cast<int>(model.nodes.size()));
  model.nodes.push_back(copy);
  const std::string edited = dir.path("edited.glb"), patch = dir.path("patch.json"), out = dir.path("out.forge");
  write_model(model, edited);

  auto r = import_to(edited, forge, patch);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("3 operations (1 moved, 1 added, 1 removed)"));
  const std::string text = test::read_text(patch);
  const tinygltf::Node& m = model.nodes[static_cast<std::size_t>(moved)];
  const tinygltf::Node& d = model.nodes[static_cast<std::size_t>(deleted)];
  const tinygltf::Node& c = model.nodes[static_cast<std::size_t>(copied)];
  const int d_index = d.extras.Get("index").Get<int>();
  for (const auto& [op, node, at] :
       {std::tuple{"replace", &m, std::to_string(m.extras.Get("index").Get<int>())},
        std::tuple{"add", &c, std::string("-")}, std::tuple{"remove", &d, std::to_string(d_index)}})
    EXPECT_THAT(text, HasSubstr(absl::StrCat(R"({"op": ")", op, R"(", "path": "/datafiles/)", extra(*node, "datafile"),
                                             "/objects/", extra(*node, "key"), "/instance/instances/", at, "\"")))
        << text;

  r = test::run_cli({"patch", forge, patch, "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const rapidjson::Document after = test::parse_json(test::run_cli({"dump", out}).out);
  const int m_index = m.extras.Get("index").Get<int>(), c_index = c.extras.Get("index").Get<int>();
  const rapidjson::Value& m_old = own_list(before, m)[m_index];
  const rapidjson::Value& m_new = own_list(after, m)[m_index];
  for (rapidjson::SizeType e = 0; e < 16; ++e) {
    const double shift = e == 12 ? 2 : e == 14 ? 3 : 0;
    EXPECT_EQ(m_new[e].GetDouble(), static_cast<double>(static_cast<f32>(m_old[e].GetDouble() + shift))) << e;
  }
  EXPECT_EQ(own_list(after, d).Size() + 1, own_list(before, d).Size());
  for (rapidjson::SizeType i = 0, j = 0; i < own_list(before, d).Size(); ++i)
    if (static_cast<int>(i) != d_index) {
      EXPECT_EQ(own_list(before, d)[i], own_list(after, d)[j++]);
    }
  const rapidjson::Value& c_list = own_list(after, c);
  ASSERT_EQ(c_list.Size(), own_list(before, c).Size() + 1);
  for (rapidjson::SizeType e = 0; e < 16; ++e) {
    const double source = own_list(before, c)[c_index][e].GetDouble();
    EXPECT_EQ(c_list[c_list.Size() - 1][e].GetDouble(),
              static_cast<double>(static_cast<f32>(source - (e == 13 ? 5 : 0))))
        << e;
  }
  // The patched archive exported and imported again: nothing more to do.
  const std::string again = exported(dir, out, "again.glb");
  r = import_to(again, out, patch);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_text(patch), "[]\n");
}

// A LOD slot whose matrix is the own one's follows its move; one that is not keeps its own.
TEST(Scene, ASlotHoldingTheSameMatrixMovesWithTheInstance) {
  test::TempDir dir;
  const std::string level = dir.path("level.bin"), same = dir.path("same.json");
  std::filesystem::copy_file(test::corpus("ac2/lod_selector_slots.bin"), level);
  for (bool equal : {false, true}) {
    SCOPED_TRACE(equal);
    if (equal) {
      const std::string text =
          R"([{"op": "replace", "path": "/objects/0x00000000000004d2/instance/slots/1/instances/0",)"
          R"( "value": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 20, 30, 1]}])";
      test::write_file(same, {reinterpret_cast<const u8*>(text.data()), text.size()});
      ASSERT_EQ(test::run_cli({"patch", level, same, "--in-place"}).exit_code, 0);
    }
    tinygltf::Model model = read_model(exported(dir, level));
    const std::vector<int> nodes = instance_nodes(model);
    ASSERT_EQ(nodes.size(), 1u);
    model.nodes[static_cast<std::size_t>(nodes[0])].matrix[12] = 11.5;
    const std::string edited = dir.path("edited.glb"), patch = dir.path("patch.json");
    write_model(model, edited);
    auto r = import_to(edited, level, patch);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const std::string text = test::read_text(patch);
    const std::string moved = "[1,0,0,0,0,1,0,0,0,0,1,0,11.5,20,30,1]";
    EXPECT_THAT(text,
                HasSubstr(R"({"op": "replace", "path": "/objects/0x00000000000004d2/instance/instances/0", "value": )" +
                          moved));
    EXPECT_EQ(text.find("/slots/1/instances/0") != std::string::npos, equal) << text;
    EXPECT_EQ(test::run_cli({"patch", level, patch, "--dry-run"}).exit_code, 0);
  }
}

// An edit of `model`'s first instance node, imported onto `target`: the result.
test::CliResult import_edit(const test::TempDir& dir, tinygltf::Model model, const std::string& target,
                            const std::function<void(tinygltf::Model&, tinygltf::Node&)>& edit) {
  edit(model, model.nodes[static_cast<std::size_t>(instance_nodes(model).front())]);
  const std::string edited = dir.path("edited.glb");
  write_model(model, edited);
  return import_to(edited, target, dir.path("patch.json"));
}

TEST(Scene, NodesTheEngineCannotPlaceAreRefusedNamingTheNode) {
  test::TempDir dir;
  const std::string forge = test::corpus("forge/ac2_five_forms.forge"), level = test::corpus("ac2/direct_mesh.bin");
  const tinygltf::Model model = read_model(exported(dir, forge));
  const std::string first = model.nodes[static_cast<std::size_t>(instance_nodes(model).front())].name;
  struct Case {
    const char* why;
    std::function<void(tinygltf::Model&, tinygltf::Node&)> edit;
  };
  const Case cases[] = {
      {"which places no instance",
       [](tinygltf::Model&, tinygltf::Node& n) {
         tinygltf::Value::Object e = n.extras.Get<tinygltf::Value::Object>();
         e["key"] = tinygltf::Value(std::string("0x00000000deadbeef"));
         n.extras = tinygltf::Value(e);
       }},
      {"does not have",
       [](tinygltf::Model&, tinygltf::Node& n) {
         tinygltf::Value::Object e = n.extras.Get<tinygltf::Value::Object>();
         e["index"] = tinygltf::Value(99);
         n.extras = tinygltf::Value(e);
       }},
      {"does not hold",
       [](tinygltf::Model&, tinygltf::Node& n) {
         tinygltf::Value::Object e = n.extras.Get<tinygltf::Value::Object>();
         e["datafile"] = tinygltf::Value(std::string("NoSuchFile"));
         n.extras = tinygltf::Value(e);
       }},
      {"a shear", [](tinygltf::Model&, tinygltf::Node& n) { n.matrix[4] += 0.5; }},
      {"within the f32 range", [](tinygltf::Model&, tinygltf::Node& n) { n.matrix[0] = 1e39; }},
      {"a scale of zero", [](tinygltf::Model&, tinygltf::Node& n) { n.matrix[0] = n.matrix[1] = n.matrix[2] = 0; }},
      {"a projection", [](tinygltf::Model&, tinygltf::Node& n) { n.matrix[3] = 0.5; }},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.why);
    auto r = import_edit(dir, model, forge, c.edit);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_THAT(r.err, HasSubstr(first));
    EXPECT_THAT(r.err, HasSubstr(c.why));
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
  // In a level file an instance can move, not go or come.
  const tinygltf::Model one = read_model(exported(dir, level, "level.glb"));
  auto r = import_edit(dir, one, level, [](tinygltf::Model& m, tinygltf::Node&) {
    m.nodes[static_cast<std::size_t>(parent_of(m, instance_nodes(m).front()))].children.erase(
        m.nodes[static_cast<std::size_t>(parent_of(m, instance_nodes(m).front()))].children.begin());
  });
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("its node is deleted, but a level file's objects cannot change size"));
  // A mod is a game folder's.
  r = test::run_cli({"import", exported(dir, forge), "--onto", forge, "-o", dir.path("mod.json"), "--mod", "m"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("a mod is a patch of a game folder"));
}

// scene/axes.hpp kUnchangedTolerance: a change within it is none, one beyond it a move.
TEST(Scene, TheToleranceDecidesWhatIsUnchanged) {
  test::TempDir dir;
  const std::string forge = test::corpus("forge/ac2_five_forms.forge");
  const tinygltf::Model model = read_model(exported(dir, forge));
  for (double factor : {0.5, 2.0}) {
    SCOPED_TRACE(factor);
    auto r = import_edit(dir, model, forge, [&](tinygltf::Model&, tinygltf::Node& n) {
      for (int e : {0, 12, 13})
        n.matrix[e] += factor * scene::kUnchangedTolerance * std::max(1.0, std::fabs(n.matrix[e]));
    });
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr(factor < 1 ? "(0 moved," : "(1 moved,"));
  }
}

// Of a game folder, --mod writes a mod that `anvilrt mod install` installs, moving the instance.
TEST(Scene, AGameFoldersSceneImportsAsAModThatInstalls) {
  test::TempDir dir;
  const std::string folder = dir.path("game"), mod = dir.path("moved.json");
  test::generate_game_folder(folder, "ac2", {"a.forge", "b.forge"}, {3, 4}, 2, 20);
  tinygltf::Model model = read_model(exported(dir, folder));
  tinygltf::Node& node = model.nodes[static_cast<std::size_t>(instance_nodes(model).back())];
  node.matrix[12] += 100;
  const double x = engine_element(node, 12);
  const std::string edited = dir.path("edited.glb");
  write_model(model, edited);
  auto r = test::run_cli({"import", edited, "--onto", folder, "-o", mod, "--mod", "moved"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const rapidjson::Document doc = test::parse_json(test::read_text(mod));
  EXPECT_EQ(doc["anvilrt_mod"].GetInt(), 1);
  EXPECT_STREQ(doc["name"].GetString(), "moved");
  ASSERT_EQ(doc["patch"].Size(), 1u);
  const std::string archive = extra(node, "archive");
  EXPECT_EQ(std::string(doc["patch"][0]["path"].GetString()),
            absl::StrCat("/archives/", archive, "/datafiles/", extra(node, "datafile"), "/objects/", extra(node, "key"),
                         "/instance/instances/", node.extras.Get("index").Get<int>()));
  r = test::run_cli({"mod", "install", folder, mod});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const rapidjson::Document after = test::parse_json(test::run_cli({"dump", folder + "/" + archive}).out);
  EXPECT_EQ(own_list(after, node)[node.extras.Get("index").Get<int>()][12].GetDouble(),
            static_cast<double>(static_cast<f32>(x)));
}

}  // namespace
}  // namespace anvil
