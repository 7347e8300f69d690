// `build`'s one-pass path (build_in_order) against its document path: on dumps as `dump --full`
// prints them it builds the same bytes; on anything else it stops, and the document path decides.
#include <gtest/gtest.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include "gen/generator.hpp"
#include "patch/rapidjson_document.hpp"
#include "pipeline/build.hpp"
#include "pipeline/dump.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

void ExpectBuildsInOrder(const std::vector<u8>& bytes, Game game) {
  std::string json = dump_json(bytes, {game, true});
  auto built = build_in_order(json);
  ASSERT_TRUE(built.has_value());
  EXPECT_EQ(built->game, game);
  EXPECT_EQ(built->bytes, bytes);
  auto whole = build_from_dump_document(json);
  ASSERT_TRUE(whole.ok()) << whole.status();
  EXPECT_EQ(*whole, bytes);
}

TEST(BuildInOrder, BuildsEveryCorpusFileAndAGeneratedOne) {
  for (const char* folder : {"ac2", "sws"}) {
    Game game = std::string_view(folder) == "ac2" ? Game::ac2 : Game::sws;
    for (const auto& path : test::corpus_files(folder)) ExpectBuildsInOrder(test::read_file(path), game);
    gen::Options options;
    options.game = game;
    options.visuals = 200;
    options.seed = 11;
    options.near_misses = 5;
    ExpectBuildsInOrder(gen::generate_bytes(options), game);
  }
}

class BuildInOrderEdits : public ::testing::Test {
 protected:
  const std::vector<u8> bytes = test::read_file(test::corpus("ac2/lod_selector_slots.bin"));
  const std::string json = dump_json(bytes, {Game::ac2, true});

  std::string replaced(const std::string& from, const std::string& to) const {
    std::string edited = json;
    auto at = edited.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return edited.replace(at, from.size(), to);
  }
};

TEST_F(BuildInOrderEdits, AnEditedValueBuildsAsTheDocumentPathBuildsIt) {
  std::string edited = replaced("\"is_fake\":1", "\"is_fake\":0");
  auto built = build_in_order(edited);
  ASSERT_TRUE(built.has_value());
  auto want = build_from_dump_document(edited);
  ASSERT_TRUE(want.ok()) << want.status();
  EXPECT_EQ(built->bytes, *want);
  EXPECT_NE(built->bytes, bytes);
}

TEST_F(BuildInOrderEdits, AnotherMemberOrderIsLeftToTheDocumentPath) {
  rapidjson::Document doc;
  doc.Parse(json.c_str());
  rapidjson::Document reordered(rapidjson::kObjectType);
  for (const char* key : {"spans", "objects", "size", "game", "format"})
    reordered.AddMember(rapidjson::StringRef(key), doc[key], reordered.GetAllocator());
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  reordered.Accept(writer);
  std::string text = buffer.GetString();
  EXPECT_FALSE(build_in_order(text).has_value());
  auto built = build_from_dump(text);
  ASSERT_TRUE(built.ok()) << built.status();
  EXPECT_EQ(*built, bytes);
}

TEST_F(BuildInOrderEdits, StopsWhereverTheDocumentPathRefuses) {
  const std::vector<std::string> refused = {
      replaced("\"is_fake\":1", "\"is_fake\":256"),
      replaced("\"shader_constants\":3", "\"shader_constants\":4"),
      replaced("\"selector\":\"0x00000000005e1ec7\"", "\"selector\":\"0x5e1ec7\""),
      replaced("\"mode\":4", "\"mode\":4,\"extra\":1"),
      replaced("\"class\":\"ImpostorInstanceData\"", "\"class\":\"LightInstance\""),
      replaced("\"instance_bounds\":[]", "\"instance_bounds\":[\"00\"]"),
      replaced("\"format\":\"anvilrt/1\"", "\"format\":\"x\""),
      replaced("\"game\":\"ac2\"", "\"game\":\"sws\""),
      replaced("\"size\":807", "\"size\":806"),
      replaced("\"size\":807", "\"size\":8070"),
      replaced("{\"offset\":0,", "{\"offset\":1,"),
      replaced("\"object\":\"0x00000000000004d2\"", "\"object\":\"0x00000000000004d3\""),
      replaced("\"offset\":14,", "\"offset\":15,"),
      replaced("\"length\":782,", "\"length\":781,"),
      json + "x",
      json.substr(0, json.size() - 2),
      // Documents that end early (the json campaign's find, tests/regress/json/crash-6ca98c9d7f29): the
      // one-pass path once accepted them as an empty file.
      R"({"format":""})",
      R"({"format":"x"})",
      R"({"format":"anvilrt/1","game":"ac2","size":0})",
      R"({"format":"anvilrt/1","game":"ac2","size":0,"objects":{}})",
  };
  for (const std::string& text : refused) {
    EXPECT_FALSE(build_in_order(text).has_value()) << text.substr(0, 120);
    EXPECT_FALSE(build_from_dump_document(text).ok()) << text.substr(0, 120);
  }
}

}  // namespace
}  // namespace anvil
