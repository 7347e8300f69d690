#include "model/dialect.hpp"

#include <vector>

#include "model/check_locator.hpp"

namespace anvil::dialect {

std::span<const Kind> kinds(Game game) {
  std::size_t first = 0;
  while (first < kKinds.size() && kKinds[first].game != game) ++first;
  std::size_t last = first;
  while (last < kKinds.size() && kKinds[last].game == game) ++last;
  return std::span<const Kind>(kKinds).subspan(first, last - first);
}

std::string game_list(std::string_view also) {
  std::vector<std::string_view> names;
  for (const GameFacts& g : kGames) names.push_back(g.name);
  if (!also.empty()) names.push_back(also);
  std::string out;
  for (std::size_t i = 0; i < names.size(); ++i)
    out.append(i == 0 ? "" : i + 1 == names.size() ? " or " : ", ").append(names[i]);
  return out;
}

std::string game_choices(std::string_view also) {
  std::string out;
  for (const GameFacts& g : kGames) out.append(out.empty() ? "" : "|").append(g.name);
  if (!also.empty()) out.append("|").append(also);
  return out;
}

const Kind* find_kind(Game game, std::string_view class_name) {
  for (const Kind& k : kinds(game))
    if (k.class_name == class_name) return &k;
  return nullptr;
}

std::size_t class_offset(const Kind& kind) {
  static const auto offsets = [] {
    std::array<std::size_t, kKinds.size()> out{};
    for (std::size_t i = 0; i < kKinds.size(); ++i)
      out[i] = with_type(kKinds[i], [](auto t) {
        using T = typename decltype(t)::type;
        return constant_offset<T>(T::class_id);
      });
    return out;
  }();
  return offsets[static_cast<std::size_t>(&kind - kKinds.data())];
}

}  // namespace anvil::dialect

namespace anvil {

std::string_view game_name(Game game) { return dialect::facts(game).name; }

std::optional<Game> parse_game(std::string_view name) {
  for (const dialect::GameFacts& g : dialect::kGames)
    if (g.name == name) return g.game;
  return std::nullopt;
}

}  // namespace anvil
