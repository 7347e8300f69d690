// The editor's map (serve/map_view.hpp, serve/map_changes.hpp): every instance packed once, and what a
// pending patch changes, paired as `anvilrt map --patch` pairs them.
#include <absl/strings/escaping.h>
#include <absl/strings/str_split.h>
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <bit>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

#include "gen/generator.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/input_file.hpp"
#include "reader/level.hpp"
#include "reader/level_source.hpp"
#include "serve/map_changes.hpp"
#include "serve/map_view.hpp"
#include "serve/session.hpp"
#include "tests/serve_input_support.hpp"
#include "tests/test_support.hpp"
#include "view/placed_instances.hpp"

namespace anvil::serve {
namespace {

view::PlacedInstance placed(u64 id, std::size_t index, double x, double y) {
  view::PlacedInstance p;
  p.id = id;
  p.index = index;
  p.x = x;
  p.y = y;
  return p;
}

TEST(ServeMap, ChangesPairedByIndexElseByPosition) {
  view::PlacedInstances before, after;
  before.datafiles = after.datafiles = {""};
  // 0x1: two instances; 0x2: one; 0x3: three; 0x4: one.
  before.records = {placed(1, 0, 0, 0), placed(1, 1, 1, 1), placed(2, 0, 2, 2), placed(3, 0, 3, 0),
                    placed(3, 1, 3, 1), placed(3, 2, 3, 2), placed(4, 0, 4, 4)};
  // 0x1's second moved; 0x2 gone; 0x3's first removed (the others now 0 and 1); 0x5 new; 0x4 kept.
  after.records = {placed(1, 0, 0, 0), placed(1, 1, 10, 11), placed(3, 0, 3, 1),
                   placed(3, 1, 3, 2), placed(4, 0, 4, 4),   placed(5, 0, 7, 8)};
  const MapRuns runs = runs_of(before);
  ASSERT_EQ(runs.first, (std::vector<u32>{0, 2, 3, 6, 7}));
  const MapChanges c = compare_marks(before, runs, after);
  ASSERT_EQ(c.changed.size(), 3u);
  EXPECT_EQ(c.changed[0].before, 1u);
  EXPECT_EQ(c.changed[0].index, 1u);
  EXPECT_EQ(c.changed[0].x, 10);
  EXPECT_EQ(c.changed[0].y, 11);
  EXPECT_EQ(c.changed[1].before, 4u);  // renumbered: 0x3's instance 1 is its 0 after
  EXPECT_EQ(c.changed[1].index, 0u);
  EXPECT_EQ(c.changed[2].before, 5u);
  EXPECT_EQ(c.changed[2].index, 1u);
  EXPECT_EQ(c.removed, (std::vector<u32>{3, 2}));
  ASSERT_EQ(c.added.size(), 1u);
  EXPECT_EQ(c.added[0].key, "0x0000000000000005");
  EXPECT_EQ(c.added[0].x, 7);
  EXPECT_TRUE(compare_marks(before, runs, before).changed.empty());
}

// A session over a file, as `anvilrt serve` opens it.

template <class T>
std::vector<T> unpacked(const rapidjson::Value& base64) {
  std::string bytes;
  EXPECT_TRUE(absl::Base64Unescape(absl::string_view(base64.GetString(), base64.GetStringLength()), &bytes));
  std::vector<T> out(bytes.size() / sizeof(T));
  std::memcpy(out.data(), bytes.data(), out.size() * sizeof(T));  // little-endian, as is every test machine
  return out;
}

// The marks of a file match its placed instances one for one; a move of one is one change, at its new
// place, and a duplicate (in an archive) an added instance.
void check_marks_and_a_move(const std::string& path) {
  auto opened = test::open_serve_input(path);
  Session session(opened->input);
  ASSERT_TRUE(session.status().ok());
  std::optional<view::PlacedInstances> expected;
  session.with_levels([&](LevelSet& set) { expected = *view::placed_instances(set, 1); });
  ASSERT_GT(expected->records.size(), 0u);
  MapView map(session, 2);
  auto reply = map.reply("[]", true);
  ASSERT_TRUE(reply.ok()) << reply.status();
  rapidjson::Document doc;
  doc.Parse(reply->data(), reply->size());
  ASSERT_TRUE(doc.IsObject() && doc.HasMember("marks"));
  const rapidjson::Value& marks = doc["marks"];
  ASSERT_EQ(marks["instances"].GetUint64(), expected->records.size());
  const auto xy = unpacked<float>(marks["xy"]);
  const auto object = unpacked<u32>(marks["object"]);
  const auto datafile = unpacked<u32>(marks["datafile"]);
  const std::vector<std::string> keys = absl::StrSplit(marks["keys"].GetString(), '\n');
  ASSERT_EQ(xy.size(), 2 * expected->records.size());
  ASSERT_EQ(object.size(), expected->records.size());
  ASSERT_EQ(datafile.size(), keys.size());
  for (std::size_t i = 0; i < object.size(); ++i) {
    const view::PlacedInstance& p = expected->records[i];
    ASSERT_EQ(keys[object[i]], view::key_of(p)) << i;
    ASSERT_EQ(datafile[object[i]], p.datafile) << i;
    ASSERT_EQ(xy[2 * i], static_cast<float>(p.x)) << i;
    ASSERT_EQ(xy[2 * i + 1], static_cast<float>(p.y)) << i;
  }
  EXPECT_TRUE(doc["changed"].Empty() && doc["removed"].Empty() && doc["added"].Empty());

  const view::PlacedInstance& first = expected->records[0];
  const std::string key = view::key_of(first);
  const std::string moved = R"([{"op":"replace","path":")" + session.object_pointer(first.datafile, key) +
                            R"(/instance/instances/0/12","value":-600.5}])";
  reply = map.reply(moved, false);
  ASSERT_TRUE(reply.ok()) << reply.status();
  doc.Parse(reply->data(), reply->size());
  EXPECT_FALSE(doc.HasMember("marks"));
  ASSERT_EQ(doc["changed"].Size(), 1u) << *reply;
  EXPECT_EQ(doc["changed"][0][0].GetUint(), 0u);
  EXPECT_EQ(doc["changed"][0][2].GetDouble(), -600.5);
  EXPECT_EQ(doc["changed"][0][3].GetDouble(), first.y);
  EXPECT_TRUE(doc["removed"].Empty() && doc["added"].Empty());

  const std::string datafiles =
      session.is_archive() ? R"(,"datafiles":[")" + session.datafile_name(first.datafile) + R"("])" : "";
  const std::string duplicated =
      R"([{"op":"duplicate_instance","objects":[")" + key + R"("],"index":0,"translate":[1,2,3])" + datafiles + "}]";
  reply = map.reply(duplicated, false);
  if (!session.is_archive()) {  // an object inside a level file cannot change size: the engine's refusal
    ASSERT_FALSE(reply.ok());
    EXPECT_NE(reply.status().message().find("cannot change size"), std::string_view::npos) << reply.status();
    return;
  }
  ASSERT_TRUE(reply.ok()) << reply.status();
  doc.Parse(reply->data(), reply->size());
  ASSERT_EQ(doc["added"].Size(), 1u) << *reply;
  EXPECT_EQ(doc["added"][0]["key"].GetString(), key);
  EXPECT_EQ(doc["added"][0]["x"].GetDouble(), static_cast<float>(first.x + 1));
  EXPECT_TRUE(doc["removed"].Empty() && doc["changed"].Empty()) << *reply;
  EXPECT_FALSE(map.reply(R"([{"op":"replace","path":"/objects/0x99/x","value":1}])", false).ok());
}

TEST(ServeMap, MarksAndChangesOfAnArchive) { check_marks_and_a_move(test::corpus("forge/ac2_five_forms.forge")); }

TEST(ServeMap, MarksAndChangesOfALevelFile) {
  test::TempDir dir;
  gen::Options options;
  options.visuals = 300;
  options.seed = 3;
  const std::string level = dir.path("level.bin");
  ASSERT_TRUE(gen::generate_file(options, level).ok());
  check_marks_and_a_move(level);
}

}  // namespace
}  // namespace anvil::serve
