// `dump` shows the fields by their FORMAT.md names with the values the corpus .md files give.
#include "pipeline/dump.hpp"

#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/pointer.h>

#include "pipeline/build.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

rapidjson::Document dump(const std::string& file, Game game, bool full = false) {
  std::string json = dump_json(test::read_file(test::corpus(file)), {game, full});
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseFullPrecisionFlag>(json.c_str());
  EXPECT_FALSE(doc.HasParseError());
  return doc;
}

const rapidjson::Value& at(const rapidjson::Value& v, const char* pointer) {
  const rapidjson::Value* found = rapidjson::Pointer(pointer).Get(v);
  EXPECT_NE(found, nullptr) << pointer;
  static const rapidjson::Value null;
  return found ? *found : null;
}

std::string str(const rapidjson::Value& v) { return v.IsString() ? v.GetString() : "<not a string>"; }

TEST(Dump, Ac2LodSelectorInstanceFields) {
  auto doc = dump("ac2/lod_selector_slots.bin", Game::ac2);
  EXPECT_EQ(str(at(doc, "/format")), "anvilrt/1");
  EXPECT_EQ(str(at(doc, "/game")), "ac2");
  EXPECT_EQ(at(doc, "/size").GetUint64(), 807u);
  EXPECT_FALSE(doc.HasMember("spans"));
  const auto& v = at(doc, "/objects/0x00000000000004d2");
  EXPECT_EQ(at(v, "/offset").GetUint64(), 0x0eu);
  EXPECT_EQ(at(v, "/length").GetUint64(), 782u);
  EXPECT_EQ(str(at(v, "/class")), "Visual");
  EXPECT_EQ(str(at(v, "/instance/class")), "LODSelectorInstance");
  EXPECT_EQ(at(v, "/instance/instances/0/12").GetDouble(), 10.0);
  EXPECT_EQ(at(v, "/instance/instances/0/14").GetDouble(), 30.0);
  EXPECT_EQ(at(v, "/instance/shader_constants").GetUint(), 3u);
  EXPECT_EQ(str(at(v, "/instance/selector")), "0x00000000005e1ec7");
  EXPECT_TRUE(at(v, "/instance/slots/0").IsNull());
  EXPECT_TRUE(at(v, "/instance/slots/3").IsNull());
  const auto& mesh = at(v, "/instance/slots/1");
  EXPECT_EQ(str(at(mesh, "/class")), "MeshInstanceData");
  EXPECT_EQ(str(at(mesh, "/id")), "0x0000000000010002");
  EXPECT_EQ(at(mesh, "/is_fake").GetUint(), 1u);
  EXPECT_EQ(at(mesh, "/is_near_fake").GetUint(), 0u);
  EXPECT_EQ(at(mesh, "/fake_mesh_index").GetUint(), 434u);
  EXPECT_EQ(at(mesh, "/compiled/vertex_format").GetUint(), 11u);
  EXPECT_EQ(at(mesh, "/compiled/platform_version").GetUint(), 31u);
  EXPECT_EQ(str(at(mesh, "/compiled/mesh_hash")), "0x0123456789abcdef");
  EXPECT_EQ(at(mesh, "/materials/0/mode").GetUint(), 1u);
  EXPECT_EQ(at(mesh, "/materials/1/mode").GetUint(), 4u);
  EXPECT_EQ(str(at(mesh, "/materials/1/replacement")), "0x3333333333333334");
  EXPECT_EQ(at(mesh, "/instance_bounds").Size(), 1u);
  EXPECT_EQ(at(mesh, "/instance_bounds/0").GetStringLength(), 80u);
  EXPECT_EQ(str(at(v, "/instance/slots/2/class")), "ImpostorInstanceData");
  EXPECT_EQ(str(at(v, "/instance/slots/2/impostor")), "0300701a000000000000");
  EXPECT_EQ(at(v, "/tail/data_layout").GetUint(), 4u);
  EXPECT_EQ(at(v, "/tail/data_u32/2").GetUint(), 0xcafef00du);
  EXPECT_EQ(at(v, "/tail/layout_ids").Size(), 5u);
}

TEST(Dump, Ac2FloatSpellings) {
  std::string json = dump_json(test::read_file(test::corpus("ac2/float_edges.bin")), {Game::ac2, false});
  for (const char* spelling :
       {"-0.0,", "1e-45,", "\"f32:0x7fc12345\"", "\"f32:0x7f800001\"", "\"f32:0xff800000\"", "0.1,", "3.4028235e+38,"})
    EXPECT_NE(json.find(spelling), std::string::npos) << spelling;
  EXPECT_EQ(json.find("0.10000000149011612"), std::string::npos);
}

TEST(Dump, Ac2LightAndUnknownInstances) {
  auto light = dump("ac2/light_instance.bin", Game::ac2);
  const auto& v = at(light, "/objects").MemberBegin()->value;
  EXPECT_EQ(str(at(v, "/instance/class")), "LightInstance");
  EXPECT_EQ(at(v, "/instance/body").GetStringLength(), 622u);
  EXPECT_TRUE(at(v, "/tail").IsNull());
  auto unknown = dump("ac2/unknown_instance.bin", Game::ac2);
  auto it = at(unknown, "/objects").MemberBegin();
  EXPECT_EQ(str(at(it->value, "/instance/class")), "SplashFXInstanceData");
  EXPECT_EQ(at(it->value, "/instance/body").GetStringLength(), 46u);
  ++it;
  EXPECT_EQ(str(at(it->value, "/instance/class")), "0x12345678");
  EXPECT_EQ(str(at(it->value, "/instance/body")), "");
}

TEST(Dump, RepeatedIdsGetTheOffset) {
  auto doc = dump("ac2/back_to_back.bin", Game::ac2, true);
  EXPECT_TRUE(at(doc, "/objects").HasMember("0x00000000000004d5@816"));
  bool placed = false;
  for (const auto& span : at(doc, "/spans").GetArray())
    placed = placed || (span.HasMember("object") && str(span["object"]) == "0x00000000000004d5@816");
  EXPECT_TRUE(placed);
}

TEST(Dump, SwsLodSelectorWithUnusedSlotsAndNonMonotonicDistances) {
  auto doc = dump("sws/lod_selector.bin", Game::sws);
  EXPECT_EQ(str(at(doc, "/game")), "sws");
  const auto& s = at(doc, "/objects/0x00001234");
  EXPECT_EQ(str(at(s, "/class")), "LODSelector");
  EXPECT_EQ(at(s, "/category").GetUint(), 2u);
  EXPECT_EQ(at(s, "/generated").GetUint(), 1u);
  EXPECT_EQ(str(at(s, "/slots/0/object")), "0x00002001");
  EXPECT_EQ(at(s, "/slots/0/switch_distance").GetDouble(), 10.0);
  EXPECT_EQ(at(s, "/slots/1/switch_distance").GetDouble(), 5.0);
  EXPECT_EQ(at(s, "/slots/2/switch_distance").GetDouble(), 40.0);
  EXPECT_EQ(str(at(s, "/slots/3/object")), "0x00000000");
  EXPECT_EQ(at(s, "/slots/3/pre").GetStringLength(), 16u);
  EXPECT_TRUE(at(s, "/trailing").IsUint());
}

TEST(Dump, SwsVisualFields) {
  auto doc = dump("sws/visual_mesh.bin", Game::sws);
  const auto& v = at(doc, "/objects").MemberBegin()->value;
  EXPECT_EQ(str(at(v, "/instance/class")), "MeshInstanceData");
  EXPECT_EQ(at(v, "/instance/submeshes").Size(), 2u);
  EXPECT_TRUE(at(v, "/instance/submeshes/0/submesh").IsString());
  EXPECT_TRUE(at(v, "/instance/submeshes/0/ao").IsString());
  EXPECT_EQ(at(v, "/instance/compiled/data").GetStringLength(), 10u);
  EXPECT_TRUE(at(v, "/instance/compiled/key").IsUint());
  EXPECT_EQ(at(v, "/instance/compiled/hash").GetStringLength(), 18u);
  EXPECT_EQ(at(v, "/unnamed").GetStringLength(), 88u);
}

// A --full dump edited by hand: build checks each field with its JSON pointer.
TEST(Build, RejectsFieldsThatFailAChecks) {
  std::string json = dump_json(test::read_file(test::corpus("ac2/lod_selector_slots.bin")), {Game::ac2, true});
  auto replace = [&](const std::string& from, const std::string& to) {
    std::string edited = json;
    auto at = edited.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    edited.replace(at, from.size(), to);
    return build_from_dump(edited);
  };
  auto expect_error = [](const absl::StatusOr<std::vector<u8>>& r, const std::string& text) {
    ASSERT_FALSE(r.ok());
    EXPECT_NE(std::string(r.status().message()).find(text), std::string::npos) << r.status().message();
  };
  expect_error(replace("\"is_fake\":1", "\"is_fake\":256"),
               "/objects/0x00000000000004d2/instance/slots/1/is_fake: must be an integer 0..255");
  expect_error(replace("\"shader_constants\":3", "\"shader_constants\":4"),
               "/objects/0x00000000000004d2/instance/shader_constants: shader_constants must be 3");
  expect_error(replace("\"selector\":\"0x00000000005e1ec7\"", "\"selector\":\"0x5e1ec7\""),
               "/objects/0x00000000000004d2/instance/selector: must be an id");
  expect_error(replace("\"mode\":4", "\"mode\":4,\"extra\":1"), "/instance/slots/1/materials/1/extra: unknown field");
  expect_error(replace("\"class\":\"ImpostorInstanceData\"", "\"class\":\"LightInstance\""),
               "/instance/slots/2/class: slot class must be known");
  expect_error(replace("\"instance_bounds\":[]", "\"instance_bounds\":[\"00\"]"), "must be 40 bytes of hex");
  expect_error(replace("\"materials\":[{",
                       "\"materials\":[{\"id\":\"0x0000000000000009\",\"owner\":\"0x0000000000000009\",\"source\":"
                       "\"0x0000000000000009\",\"mode\":1,\"replacement\":\"0x0000000000000009\"},{"),
               "an object inside a level file cannot change size");
  expect_error(replace("\"format\":\"anvilrt/1\"", "\"format\":\"x\""), "/format");
  EXPECT_TRUE(replace("\"is_fake\":1", "\"is_fake\":0").ok());
}

TEST(Build, RefusesADumpWithoutSpans) {
  std::string json = dump_json(test::read_file(test::corpus("ac2/direct_mesh.bin")), {Game::ac2, false});
  auto r = build_from_dump(json);
  ASSERT_FALSE(r.ok());
  EXPECT_NE(std::string(r.status().message()).find("/spans: missing"), std::string::npos);
}

}  // namespace
}  // namespace anvil
