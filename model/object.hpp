// The top-level objects a level file is carved into, by dialect (FORMAT.md sections 1-3).
#pragma once

#include <optional>
#include <string_view>
#include <variant>

#include "model/ac2/visual.hpp"
#include "model/sws/lod_selector.hpp"
#include "model/sws/visual.hpp"

namespace anvil {

enum class Game { ac2, sws };
inline constexpr Game kGames[] = {Game::ac2, Game::sws};

std::string_view game_name(Game game);
std::optional<Game> parse_game(std::string_view name);

// Every top-level object kind. A dialect is the set of kinds it carves (model/dialect.hpp, which also
// gives each its JSON "class": class_name()).
using Object = std::variant<ac2::Visual, sws::LODSelector, sws::Visual>;

// The object's id and its width in bytes (the JSON key is "0x" + 2*width hex digits).
inline u64 object_id(const Object& o) {
  return std::visit([](const auto& x) -> u64 { return x.id.value; }, o);
}
inline std::size_t id_width(const Object& o) {
  return std::visit([](const auto& x) { return sizeof(x.id.value); }, o);
}

}  // namespace anvil
