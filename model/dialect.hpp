// The per-game facts in one place: each dialect's name and title, the width of its object
// ids, and the top-level object kinds it carves (FORMAT.md sections 1-3): their JSON "class", their
// class id, and the Object alternative (the layout declaration) each maps to. The carver, the JSON
// readers, the schema catalog, the patch engine and stats all ask this table; none spells a fact again.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <variant>

#include "model/class_ids.hpp"
#include "model/object.hpp"

namespace anvil::dialect {

// The Object alternative that holds T.
template <class T, std::size_t I = 0>
consteval std::size_t alternative() {
  static_assert(I < std::variant_size_v<Object>, "not an Object alternative");
  if constexpr (std::is_same_v<std::variant_alternative_t<I, Object>, T>)
    return I;
  else
    return alternative<T, I + 1>();
}

// A dialect: its `--game` name and what it is.
struct GameFacts {
  Game game;
  std::string_view name;   // "ac2": the `--game` value and the JSON document's "game"
  std::string_view title;  // "Assassin's Creed II"
  std::size_t id_width;    // bytes of an object id (JSON keys are "0x" + 2 * id_width hex digits)
};

inline constexpr std::array<GameFacts, 2> kGames = {{
    {Game::ac2, "ac2", "Assassin's Creed II", sizeof(ac2::Visual{}.id.value)},
    {Game::sws, "sws", "Shaun White Skateboarding", sizeof(sws::Visual{}.id.value)},
}};

// A top-level object kind: the dialect carving it, its JSON "class", its class id (the carver's search
// signature) and the Object alternative it reads into.
struct Kind {
  Game game;
  std::string_view class_name;
  u32 class_id;
  std::size_t alternative;
};

template <class T>
constexpr Kind kind(Game game, std::string_view class_name) {
  return {game, class_name, T::class_id, alternative<T>()};
}

// In dialect order, and within one the order the carver tries them at one position.
inline constexpr std::array<Kind, 3> kKinds = {{
    kind<ac2::Visual>(Game::ac2, "Visual"),
    kind<sws::LODSelector>(Game::sws, "LODSelector"),
    kind<sws::Visual>(Game::sws, "Visual"),
}};

consteval bool every_alternative_once() {
  std::array<int, std::variant_size_v<Object>> seen{};
  for (const Kind& k : kKinds) ++seen[k.alternative];
  for (int n : seen)
    if (n != 1) return false;
  for (std::size_t i = 1; i < kKinds.size(); ++i)
    if (kKinds[i].game < kKinds[i - 1].game) return false;
  return true;
}
static_assert(every_alternative_once(), "every Object alternative is one kind; kinds are grouped by dialect");

// Every class id the reader searches the bytes for: the kinds' signatures, and the ac2 Visual tail's
// class that the tail index finds (reader/file_tails.hpp). The generator keeps its filler free of
// their bytes, so that only what it placed is carved.
inline constexpr auto kSearchedClassIds = [] {
  std::array<u32, kKinds.size() + 1> ids{};
  for (std::size_t i = 0; i < kKinds.size(); ++i) ids[i] = kKinds[i].class_id;
  ids[kKinds.size()] = class_id::kVisualShaderConstants;  // model/ac2/tail_class.hpp
  return ids;
}();

constexpr const GameFacts& facts(Game game) {
  for (const GameFacts& g : kGames)
    if (g.game == game) return g;
  return kGames[0];
}

// The dialects' names as a message lists them: "ac2 or sws", or with `also` last: "ac2, sws or auto".
std::string game_list(std::string_view also = {});

// The dialects' names as a usage line lists them: "ac2|sws", or with `also` last: "ac2|sws|auto".
std::string game_choices(std::string_view also = {});

// Whether `game` carves top-level objects of type T (sws carves LODSelectors, ac2 does not).
template <class T>
constexpr bool carves(Game game) {
  for (const Kind& k : kKinds)
    if (k.game == game && k.alternative == alternative<T>()) return true;
  return false;
}

// The kinds `game` carves, in the carver's order.
std::span<const Kind> kinds(Game game);
// The kind of `game` whose JSON "class" is `class_name`, if any.
const Kind* find_kind(Game game, std::string_view class_name);
// The kind an Object holds.
constexpr const Kind& kind_of(const Object& object) {
  for (const Kind& k : kKinds)
    if (k.alternative == object.index()) return k;
  return kKinds[0];
}
// Where the kind's class id lies in its first bytes, from its declaration (computed once per kind).
std::size_t class_offset(const Kind& kind);

// Calls f(std::type_identity<T>{}) with the kind's layout type T.
template <class F, std::size_t I = 0>
decltype(auto) with_type(const Kind& kind, F&& f) {
  if constexpr (I + 1 == std::variant_size_v<Object>) {
    return f(std::type_identity<std::variant_alternative_t<I, Object>>{});
  } else {
    if (kind.alternative == I) return f(std::type_identity<std::variant_alternative_t<I, Object>>{});
    return with_type<F, I + 1>(kind, std::forward<F>(f));
  }
}

}  // namespace anvil::dialect

namespace anvil {

// The JSON "class" of a top-level object.
inline std::string_view class_name(const Object& o) { return dialect::kind_of(o).class_name; }

}  // namespace anvil
