// Edits that change an object's size (FORGE.md 5), through the binary: inside a data file, given on its
// own or inside an archive of either game, the object's counts follow its arrays, its body and that
// entry's `file_size` and `data_size` change by the growth, and every other byte keeps its value
// (shifted); on a bare level file the same patch is refused, writing nothing. The data files' entry
// tables are read here from FORGE.md 3 alone, not with anvilrt's reader.
#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>

#include "tests/test_support.hpp"

namespace anvil {
namespace {

using test::run_cli;

u32 u32_at(const std::vector<u8>& b, std::size_t at) {
  u32 v = 0;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}

// FORGE.md 3: where each entry's size fields and body lie.
struct EntryAt {
  std::size_t data_size_at, file_size_at, body, size;
};
std::vector<EntryAt> entries_of(const std::vector<u8>& b) {
  std::vector<EntryAt> out;
  u16 count = static_cast<u16>(b[0] | b[1] << 8);
  std::size_t at = 2 + 10 * std::size_t{count};
  at += 4 + u32_at(b, at);
  for (std::size_t e = 0; e < count; ++e) {
    EntryAt entry{};
    entry.data_size_at = 2 + 10 * e + 4;
    entry.file_size_at = at + 4;
    entry.size = u32_at(b, at + 4);
    at += 12 + u32_at(b, at + 8);
    u8 flag = b[at++];
    if (flag == 1) at += 3 + 4 + 12 * std::size_t{u32_at(b, at + 3)};
    entry.body = at;
    at += entry.size;
    out.push_back(entry);
  }
  EXPECT_EQ(at, b.size()) << "nothing may follow the last body";
  return out;
}

rapidjson::Document dump(const std::string& path) {
  auto r = run_cli({"dump", path, "-q"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return test::parse_json(r.out);
}

std::size_t count_of(const rapidjson::Value& list) { return list.IsArray() ? list.Size() : 0; }

// A Visual with a LODSelectorInstance of at least one instance: its key, its data file, how many of its
// lists (its own and its slots') have its own count, and how many bounds follow them.
struct Candidate {
  std::string datafile, key;
  std::size_t lists = 0, bounds = 0;
};

// The first such Visual in a compressed data file whose slot lists hold `want_slot_lists` of its count
// (ac2; any for sws, whose slots hold none), and where no list holds one more (so a remove undoes it).
std::optional<Candidate> find_candidate(const rapidjson::Document& archive, bool want_slot_lists) {
  for (auto& df : archive["datafiles"].GetObject()) {
    for (auto& object : df.value["objects"].GetObject()) {
      const auto& o = object.value;
      if (!o.HasMember("instance") || o["instance"].IsNull() || !o["instance"].HasMember("slots")) continue;
      const auto& inst = o["instance"];
      std::size_t n = inst["instances"].Size();
      if (n == 0) continue;
      Candidate c{df.name.GetString(), object.name.GetString(), 1, 0};
      bool plus_one = false;
      for (const auto& slot : inst["slots"].GetArray()) {
        if (slot.IsNull() || !slot.HasMember("instances")) continue;
        std::size_t k = count_of(slot["instances"]);
        plus_one = plus_one || k == n + 1;
        if (k != n) continue;
        ++c.lists;
        if (slot.HasMember("instance_bounds") && count_of(slot["instance_bounds"]) == n) ++c.bounds;
      }
      if (plus_one || (want_slot_lists && c.lists == 1)) continue;
      return c;
    }
  }
  return std::nullopt;
}

struct DataFileAt {
  std::size_t offset, size;
};
std::map<std::string, DataFileAt> stored_places(const std::string& forge) {
  auto r = run_cli({"ls", forge, "--json"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, DataFileAt> out;
  rapidjson::Document doc = test::parse_json(r.out);
  for (const auto& d : doc["datafiles"].GetArray())
    out[d["name"].GetString()] = {d["stored_offset"].GetUint64(), d["size"].GetUint64()};
  return out;
}

std::vector<u8> extract(const test::TempDir& tmp, const std::string& forge, const std::string& datafile,
                        const std::string& folder) {
  auto r = run_cli({"extract", forge, datafile, "-o", tmp.path(folder), "-q"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return test::read_file(tmp.path(folder + "/" + datafile + ".data"));
}

class ResizeArchive : public ::testing::TestWithParam<std::string> {};

TEST_P(ResizeArchive, DuplicateInstanceGrowsItsEntryAndShiftsTheRest) {
  const std::string game = GetParam();
  test::TempDir tmp;
  std::string forge = tmp.path("a.forge");
  ASSERT_EQ(run_cli({"gen", "--forge", "--game", game, "--visuals", "20", "--seed", "7", "-o", forge, "-q"}).exit_code,
            0);
  rapidjson::Document before_doc = dump(forge);
  auto c = find_candidate(before_doc, game == "ac2");
  ASSERT_TRUE(c) << "no Visual with a LODSelectorInstance to duplicate an instance of";
  const auto& object = before_doc["datafiles"][c->datafile.c_str()]["objects"][c->key.c_str()];
  const std::size_t n = object["instance"]["instances"].Size();
  const std::size_t growth = 64 * c->lists + 40 * c->bounds;

  std::string patch = tmp.path("dup.json");
  std::string text =
      absl::StrFormat(R"([{"op":"duplicate_instance","objects":["%s"],"index":0,"translate":[1,2,3]}])", c->key);
  { std::ofstream(patch) << text; }
  std::string out = tmp.path("b.forge");
  auto r = run_cli({"patch", forge, patch, "-o", out, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;

  std::vector<u8> a = extract(tmp, forge, c->datafile, "before");
  std::vector<u8> b = extract(tmp, out, c->datafile, "after");
  ASSERT_EQ(b.size(), a.size() + growth);
  // The entry holding the object grew by the growth in both its size fields; no other entry changed.
  const std::size_t offset = object["offset"].GetUint64(), length = object["length"].GetUint64();
  std::vector<EntryAt> ea = entries_of(a), eb = entries_of(b);
  ASSERT_EQ(ea.size(), eb.size());
  std::vector<std::size_t> fields;
  for (std::size_t e = 0; e < ea.size(); ++e) {
    bool holds = offset >= ea[e].body && offset < ea[e].body + ea[e].size;
    std::size_t d = holds ? growth : 0;
    EXPECT_EQ(eb[e].size, ea[e].size + d);
    EXPECT_EQ(u32_at(b, eb[e].data_size_at), u32_at(a, ea[e].data_size_at) + d);
    if (holds) fields = {ea[e].data_size_at, ea[e].file_size_at};
  }
  ASSERT_EQ(fields.size(), 2u);
  // Every byte outside the object is unchanged (shifted by the growth after it), but for the two fields.
  std::vector<u8> head_a(a.begin(), a.begin() + offset), head_b(b.begin(), b.begin() + offset);
  for (std::size_t f : fields) std::memcpy(head_b.data() + f, head_a.data() + f, 4);
  EXPECT_EQ(head_a, head_b);
  EXPECT_TRUE(std::equal(a.begin() + offset + length, a.end(), b.begin() + offset + length + growth));

  // The object read again: its count followed its list, and the copy, moved, is at the end.
  rapidjson::Document after_doc = dump(tmp.path("after/" + c->datafile + ".data"));
  const auto& edited = after_doc["objects"][c->key.c_str()];
  EXPECT_EQ(edited["length"].GetUint64(), length + growth);
  const auto& list = edited["instance"]["instances"];
  ASSERT_EQ(list.Size(), n + 1);
  for (rapidjson::SizeType i = 0; i < 16; ++i) {
    float want = object["instance"]["instances"][0][i].GetFloat() + (i >= 12 && i < 15 ? float(i - 11) : 0.0f);
    EXPECT_EQ(list[n][i].GetFloat(), want) << i;
  }

  // Every other data file's stored bytes are the archive's.
  std::vector<u8> fa = test::read_file(forge), fb = test::read_file(out);
  auto pa = stored_places(forge), pb = stored_places(out);
  for (auto& [name, at] : pa) {
    if (name == c->datafile) continue;
    ASSERT_EQ(pb[name].size, at.size) << name;
    EXPECT_TRUE(std::equal(fa.begin() + at.offset, fa.begin() + at.offset + at.size, fb.begin() + pb[name].offset))
        << name;
  }

  // The same patch on the extracted data file gives the same bytes.
  std::string alone = tmp.path("alone.data");
  r = run_cli({"patch", tmp.path("before/" + c->datafile + ".data"), patch, "-o", alone, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(alone), b);

  // remove_instance of the index it added gives the original data file back, in the archive and alone.
  std::string undo = tmp.path("undo.json");
  { std::ofstream(undo) << absl::StrFormat(R"([{"op":"remove_instance","objects":["%s"],"index":%d}])", c->key, n); }
  std::string back = tmp.path("c.forge");
  r = run_cli({"patch", out, undo, "-o", back, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(extract(tmp, back, c->datafile, "back"), a);
  std::string alone_back = tmp.path("alone_back.data");
  r = run_cli({"patch", alone, undo, "-o", alone_back, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(alone_back), a);
}

INSTANTIATE_TEST_SUITE_P(BothGames, ResizeArchive, ::testing::Values("ac2", "sws"));

// A level file: the container around an object is unknown, so no object may change size.
TEST(ResizeLevelFile, IsRefusedNamingWhyAndWritesNothing) {
  test::TempDir tmp;
  for (
      const auto& [file, op] : std::vector<std::pair<std::string, std::string>>{
          {"ac2/lod_selector_slots.bin",
           R"({"op":"duplicate_instance","objects":["0x00000000000004d2"],"index":0,"translate":[1,2,3]})"},
          {"ac2/direct_mesh.bin", R"({"op":"remove_instance","objects":["0x00000000000004d2"],"index":0})"},
          {"ac2/direct_mesh.bin",
           R"({"op":"add_material","objects":"*","source":"0x0000000000000001","replacement":"0x0000000000000002","mode":1})"},
          {"ac2/direct_mesh.bin", R"({"op":"remove","path":"/objects/0x00000000000004d2/instance/instance_bounds/0"})"},
          {"sws/visual_mesh.bin", R"({"op":"remove","path":"/objects/0x00005678/instance/submeshes/0"})"}}) {
    SCOPED_TRACE(file + " " + op);
    std::string patch = tmp.path("p.json");
    { std::ofstream(patch) << "[" << op << "]"; }
    std::string out = tmp.path("out.bin");
    auto r = run_cli({"patch", test::corpus(file), patch, "-o", out, "-q"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find("an object inside a level file cannot change size (the size fields of the container around "
                         "it are not known; inside a data file or an archive they are)"),
              std::string::npos)
        << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
  }
}

// The RFC 6902 operations on the arrays whose counts the layouts declare, in a data file of each game.
class ResizeDataFile : public ::testing::Test {
 protected:
  // The first data file of a generated archive, extracted.
  std::string data_file(const std::string& game) {
    std::string forge = tmp_.path(game + ".forge");
    EXPECT_EQ(
        run_cli({"gen", "--forge", "--game", game, "--visuals", "20", "--seed", "3", "-o", forge, "-q"}).exit_code, 0);
    EXPECT_EQ(run_cli({"extract", forge, "DataFile_000", "-o", tmp_.path(game), "-q"}).exit_code, 0);
    return tmp_.path(game + "/DataFile_000.data");
  }
  test::CliResult apply(const std::string& file, const std::string& ops, const std::string& out) {
    std::string patch = tmp_.path("p.json");
    { std::ofstream(patch) << ops; }
    return run_cli({"patch", file, patch, "-o", out, "-q"});
  }
  test::TempDir tmp_;
};

TEST_F(ResizeDataFile, Ac2ArraysFollowAddRemoveMoveCopy) {
  std::string file = data_file("ac2");
  rapidjson::Document doc = dump(file);
  // A Visual whose first slot is a MeshInstanceData with a material info.
  std::string key;
  for (auto& object : doc["objects"].GetObject()) {
    const auto& o = object.value;
    if (!o.HasMember("instance") || o["instance"].IsNull() || !o["instance"].HasMember("slots")) continue;
    const auto& slot = o["instance"]["slots"][0];
    if (!slot.IsNull() && slot.HasMember("materials") && slot["materials"].Size() > 0) {
      key = object.name.GetString();
      break;
    }
  }
  ASSERT_FALSE(key.empty());
  const auto& o = doc["objects"][key.c_str()];
  const std::size_t length = o["length"].GetUint64(), size = test::read_file(file).size();
  const std::size_t materials = o["instance"]["slots"][0]["materials"].Size();
  const std::size_t instances = o["instance"]["instances"].Size();
  std::string base = "/objects/" + key + "/instance";
  std::string out = tmp_.path("out.data");
  auto r = apply(
      file,
      absl::StrCat(
          R"([{"op":"add","path":")", base, R"(/instances/0","value":[1,0,0,0,0,1,0,0,0,0,1,0,5,6,7,1]},)",
          R"({"op":"test","path":"/objects/)", key, R"(/length","value":)", length + 64, "},",
          R"({"op":"copy","from":")", base, R"(/slots/0/materials/0","path":")", base, R"(/slots/0/materials/-"},)",
          R"({"op":"add","path":")", base,
          R"(/slots/0/instance_bounds/-","value":"abababababababababababababababababababababababababababababababababababababababab"},)",
          R"({"op":"move","from":")", base, R"(/slots/0/materials/0","path":")", base, R"(/slots/0/materials/1"}])"),
      out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(out).size(), size + 64 + 41 + 40);
  rapidjson::Document after = dump(out);
  const auto& e = after["objects"][key.c_str()];
  EXPECT_EQ(e["length"].GetUint64(), length + 64 + 41 + 40);
  EXPECT_EQ(e["instance"]["instances"].Size(), instances + 1);
  EXPECT_EQ(e["instance"]["instances"][0][12].GetFloat(), 5.0f);
  EXPECT_EQ(e["instance"]["slots"][0]["materials"].Size(), materials + 1);

  // A value added must pass every check of its structure; nothing is written when it does not.
  for (
      const auto& [op, why] : std::vector<std::pair<std::string, std::string>>{
          {R"({"op":"add","path":")" + base + R"(/instances/-","value":[1,0,0]})", "must have 16 elements (found 3)"},
          {R"({"op":"add","path":")" + base +
               R"(/slots/0/materials/-","value":{"id":"0x0000000000000001","owner":"0x1","source":"0x0000000000000001","mode":1,"replacement":"0x0000000000000001"}})",
           "owner: must be an id"},
          {R"({"op":"add","path":")" + base +
               R"(/slots/0/materials/-","value":{"id":"0x0000000000000001","owner":"0x0000000000000001","source":"0x0000000000000001","mode":1}})",
           "replacement"},
          {R"({"op":"add","path":")" + base + R"(/slots/0/instance_bounds/-","value":"00"})",
           "must be 40 bytes of hex"},
          {R"({"op":"replace","path":"/objects/)" + key + R"(/length","value":5})", "\"length\" follows the fields"}}) {
    SCOPED_TRACE(op);
    std::string bad = tmp_.path("bad.data");
    r = apply(file, "[" + op + "]", bad);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_NE(r.err.find(why), std::string::npos) << r.err;
    EXPECT_FALSE(std::filesystem::exists(bad));
  }
}

TEST_F(ResizeDataFile, SwsSubmeshesAndLodInstances) {
  std::string file = data_file("sws");
  rapidjson::Document doc = dump(file);
  std::string mesh, lod;
  for (auto& object : doc["objects"].GetObject()) {
    const auto& o = object.value;
    if (!o.HasMember("instance") || o["instance"].IsNull()) continue;
    if (mesh.empty() && o["instance"].HasMember("submeshes") && o["instance"]["submeshes"].Size() > 0)
      mesh = object.name.GetString();
    if (lod.empty() && o["instance"].HasMember("slots") && o["instance"]["instances"].Size() > 0)
      lod = object.name.GetString();
  }
  ASSERT_FALSE(mesh.empty());
  ASSERT_FALSE(lod.empty());
  const std::size_t size = test::read_file(file).size();
  const std::size_t submeshes = doc["objects"][mesh.c_str()]["instance"]["submeshes"].Size();
  const auto& m0 = doc["objects"][lod.c_str()]["instance"]["instances"][0];
  std::string out = tmp_.path("out.data");
  auto r = apply(
      file,
      absl::StrCat(R"([{"op":"copy","from":"/objects/)", mesh, R"(/instance/submeshes/0","path":"/objects/)", mesh,
                   R"(/instance/submeshes/-"},{"op":"copy","from":"/objects/)", mesh,
                   R"(/instance/submeshes/0","path":"/objects/)", mesh,
                   R"(/instance/submeshes/0"},{"op":"remove","path":"/objects/)", mesh,
                   R"(/instance/submeshes/1"},{"op":"transform","objects":[")", lod, R"("],"translate":[0,0,10]}])"),
      out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(out).size(), size + 18);
  rapidjson::Document after = dump(out);
  EXPECT_EQ(after["objects"][mesh.c_str()]["instance"]["submeshes"].Size(), submeshes + 1);
  // transform moves an sws LODSelectorInstance's own matrices (FORMAT.md 3.2: 2.2's).
  EXPECT_EQ(after["objects"][lod.c_str()]["instance"]["instances"][0][14].GetFloat(), m0[14].GetFloat() + 10.0f);
}

TEST_F(ResizeDataFile, AddMaterialAppendsToEachMeshInstanceData) {
  std::string file = data_file("ac2");
  rapidjson::Document doc = dump(file);
  std::string key;
  std::size_t meshes = 0;
  for (auto& object : doc["objects"].GetObject()) {
    const auto& o = object.value;
    if (!o.HasMember("instance") || o["instance"].IsNull() || !o["instance"].HasMember("slots")) continue;
    meshes = 0;
    for (const auto& slot : o["instance"]["slots"].GetArray()) meshes += !slot.IsNull() && slot.HasMember("materials");
    if (meshes >= 2) {
      key = object.name.GetString();
      break;
    }
  }
  ASSERT_FALSE(key.empty());
  const std::size_t size = test::read_file(file).size();
  std::string out = tmp_.path("out.data");
  auto r = apply(file,
                 absl::StrCat(R"([{"op":"add_material","objects":[")", key,
                              R"("],"source":"0x1111111111111111","replacement":"0x2222222222222222","mode":4}])"),
                 out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(out).size(), size + 41 * meshes);
  rapidjson::Document after = dump(out);
  const auto& slots = after["objects"][key.c_str()]["instance"]["slots"];
  for (rapidjson::SizeType i = 0; i < slots.Size(); ++i) {
    const auto& slot = slots[i];
    if (slot.IsNull() || !slot.HasMember("materials")) continue;
    const auto& before = doc["objects"][key.c_str()]["instance"]["slots"][i];
    const auto& info = slot["materials"][slot["materials"].Size() - 1];
    EXPECT_EQ(slot["materials"].Size(), before["materials"].Size() + 1);
    EXPECT_STREQ(info["source"].GetString(), "0x1111111111111111");
    EXPECT_STREQ(info["replacement"].GetString(), "0x2222222222222222");
    EXPECT_EQ(info["mode"].GetUint(), 4u);
    EXPECT_STREQ(info["id"].GetString(), "0x0000000000000000");
    // The owner the slot's infos name, or the slot's own id when it has none.
    std::string owner =
        before["materials"].Size() > 0 ? before["materials"][0]["owner"].GetString() : before["id"].GetString();
    EXPECT_EQ(info["owner"].GetString(), owner);
  }
  // An sws file has no material infos.
  std::string sws = data_file("sws");
  r = apply(
      sws,
      R"([{"op":"add_material","objects":"*","source":"0x1111111111111111","replacement":"0x2222222222222222","mode":4}])",
      tmp_.path("sws_out.data"));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("add_material is an ac2 operation (this file is sws)"), std::string::npos) << r.err;
}

TEST_F(ResizeDataFile, InstanceIndexOutOfRangeIsRefused) {
  std::string file = data_file("ac2");
  rapidjson::Document doc = dump(file);
  std::string key;
  std::size_t n = 0;
  for (auto& object : doc["objects"].GetObject()) {
    const auto& o = object.value;
    if (!o.HasMember("instance") || o["instance"].IsNull() || !o["instance"].HasMember("slots")) continue;
    key = object.name.GetString();
    n = o["instance"]["instances"].Size();
    break;
  }
  ASSERT_FALSE(key.empty());
  std::string out = tmp_.path("out.data");
  auto r = apply(file, absl::StrFormat(R"([{"op":"remove_instance","objects":["%s"],"index":%d}])", key, n), out);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(absl::StrFormat("\"index\" %d is out of range: /objects/%s/instance/instances has", n, key)),
            std::string::npos)
      << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));
}

}  // namespace
}  // namespace anvil
