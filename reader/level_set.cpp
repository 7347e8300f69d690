#include "reader/level_set.hpp"

#include <stdexcept>

#include "reader/signature_search.hpp"

namespace anvil {

std::optional<std::size_t> LevelSet::find(std::string_view name) const {
  for (std::size_t i = 0; i < size(); ++i)
    if (this->name(i) == name) return i;
  return std::nullopt;
}

std::vector<std::size_t> LevelSet::select(std::string_view selector) const {
  if (auto i = find(selector)) return {*i};
  return {};
}

absl::StatusOr<std::vector<std::size_t>> LevelSet::holding(std::span<const u8> needle, const std::vector<bool>* among,
                                                           unsigned /*threads*/) {
  std::vector<std::size_t> found;
  for (std::size_t i = 0; i < size(); ++i) {
    if (among != nullptr && !(*among)[i]) continue;
    auto bytes = bytes_of(i);
    if (!bytes.ok()) return bytes.status();
    if (find_bytes(*bytes, needle))
      found.push_back(i);
    else
      release(i);
  }
  return found;
}

void MemoryLevelSet::add(std::string name, std::vector<u8> bytes) {
  if (find(name)) throw std::invalid_argument("a data file named \"" + name + "\" is already in the set");
  files_.push_back({std::move(name), std::move(bytes), nullptr});
}

absl::StatusOr<const Level*> MemoryLevelSet::level(std::size_t i) {
  File& file = files_.at(i);
  if (!file.level) file.level = std::make_unique<Level>(carve_level(file.bytes, game_));
  return file.level.get();
}

}  // namespace anvil
