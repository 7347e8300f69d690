#include "model/object.hpp"

namespace anvil {

std::string_view game_name(Game game) { return game == Game::ac2 ? "ac2" : "sws"; }

std::optional<Game> parse_game(std::string_view name) {
  if (name == "ac2") return Game::ac2;
  if (name == "sws") return Game::sws;
  return std::nullopt;
}

}  // namespace anvil
