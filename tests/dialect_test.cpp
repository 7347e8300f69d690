// The dialect table (model/dialect.hpp): each game's facts stated once, and what its users derive from it.
#include "model/dialect.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "model/check_locator.hpp"
#include "model/class_ids.hpp"
#include "reader/object_json.hpp"

namespace anvil {
namespace {

TEST(Dialect, GamesAndTheirNames) {
  ASSERT_EQ(dialect::kGames.size(), std::size(kGames));
  for (Game g : kGames) {
    EXPECT_EQ(parse_game(game_name(g)), g);
    EXPECT_EQ(dialect::facts(g).game, g);
  }
  EXPECT_EQ(game_name(Game::ac2), "ac2");
  EXPECT_EQ(game_name(Game::sws), "sws");
  EXPECT_EQ(parse_game("auto"), std::nullopt);
  EXPECT_EQ(parse_game("AC2"), std::nullopt);
  EXPECT_EQ(dialect::facts(Game::ac2).id_width, 8u);
  EXPECT_EQ(dialect::facts(Game::sws).id_width, 4u);
  EXPECT_EQ(dialect::game_list(), "ac2 or sws");
  EXPECT_EQ(dialect::game_list("auto"), "ac2, sws or auto");
  EXPECT_EQ(dialect::game_choices(), "ac2|sws");
  EXPECT_EQ(dialect::game_choices("auto"), "ac2|sws|auto");
}

TEST(Dialect, CarvesAndSearchedClassIds) {
  EXPECT_TRUE(dialect::carves<ac2::Visual>(Game::ac2));
  EXPECT_FALSE(dialect::carves<sws::LODSelector>(Game::ac2));
  EXPECT_TRUE(dialect::carves<sws::LODSelector>(Game::sws));
  EXPECT_FALSE(dialect::carves<ac2::Visual>(Game::sws));
  // The kinds' signatures and the ac2 tail class the tail index searches for.
  for (u32 id : {class_id::kVisual, class_id::kLODSelector, class_id::kVisualShaderConstants})
    EXPECT_NE(std::find(dialect::kSearchedClassIds.begin(), dialect::kSearchedClassIds.end(), id),
              dialect::kSearchedClassIds.end())
        << std::hex << id;
}

TEST(Dialect, KindsPerGameInCarverOrder) {
  auto ac2 = dialect::kinds(Game::ac2);
  ASSERT_EQ(ac2.size(), 1u);
  EXPECT_EQ(ac2[0].class_name, "Visual");
  EXPECT_EQ(ac2[0].class_id, class_id::kVisual);
  auto sws = dialect::kinds(Game::sws);
  ASSERT_EQ(sws.size(), 2u);
  EXPECT_EQ(sws[0].class_name, "LODSelector");
  EXPECT_EQ(sws[0].class_id, class_id::kLODSelector);
  EXPECT_EQ(sws[1].class_name, "Visual");
  // Each kind's class id names a known class, and its name is a JSON "class" of the dictionary.
  for (const dialect::Kind& k : dialect::kKinds) {
    EXPECT_EQ(class_id::name_of(k.class_id), k.class_name);
    EXPECT_EQ(class_id::crc32(k.class_name), k.class_id);
  }
}

TEST(Dialect, FindKindIsPerGame) {
  EXPECT_NE(dialect::find_kind(Game::ac2, "Visual"), nullptr);
  EXPECT_EQ(dialect::find_kind(Game::ac2, "LODSelector"), nullptr);
  const dialect::Kind* selector = dialect::find_kind(Game::sws, "LODSelector");
  ASSERT_NE(selector, nullptr);
  EXPECT_EQ(selector->alternative, dialect::alternative<sws::LODSelector>());
  EXPECT_EQ(dialect::find_kind(Game::sws, "visual"), nullptr);
  EXPECT_NE(dialect::find_kind(Game::ac2, "Visual"), dialect::find_kind(Game::sws, "Visual"));
}

TEST(Dialect, KindOfAndClassNameFollowTheObject) {
  Object o = ac2::Visual{};
  EXPECT_EQ(&dialect::kind_of(o), &dialect::kinds(Game::ac2)[0]);
  EXPECT_EQ(class_name(o), "Visual");
  o = sws::LODSelector{};
  EXPECT_EQ(class_name(o), "LODSelector");
  EXPECT_EQ(dialect::kind_of(o).game, Game::sws);
  o = sws::Visual{};
  EXPECT_EQ(class_name(o), "Visual");
  EXPECT_EQ(dialect::kind_of(o).game, Game::sws);
}

TEST(Dialect, WithTypeAndClassOffsetMatchTheDeclarations) {
  for (const dialect::Kind& k : dialect::kKinds) {
    // The type given is the Object alternative the kind names (its index, found from the type alone).
    std::size_t index =
        dialect::with_type(k, [](auto t) { return dialect::alternative<typename decltype(t)::type>(); });
    EXPECT_EQ(index, k.alternative) << k.class_name;
  }
  EXPECT_EQ(dialect::class_offset(dialect::kinds(Game::ac2)[0]), constant_offset<ac2::Visual>(class_id::kVisual));
  EXPECT_EQ(dialect::class_offset(dialect::kinds(Game::sws)[0]),
            constant_offset<sws::LODSelector>(class_id::kLODSelector));
  EXPECT_EQ(dialect::class_offset(dialect::kinds(Game::sws)[1]), constant_offset<sws::Visual>(class_id::kVisual));
}

TEST(Dialect, JsonReaderTakesOnlyTheGamesClasses) {
  rapidjson::Document doc;
  doc.Parse(R"({"offset": 0, "length": 0, "class": "LODSelector"})");
  Object out;
  auto failure = read_object_json(doc, Game::ac2, "/objects/0", out);
  ASSERT_TRUE(failure.has_value());
  EXPECT_EQ(failure->check, "must be a top-level class of ac2");
}

}  // namespace
}  // namespace anvil
