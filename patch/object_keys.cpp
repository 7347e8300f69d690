#include "patch/object_keys.hpp"

#include <absl/strings/str_cat.h>

#include <algorithm>
#include <charconv>

#include "model/json_text.hpp"

namespace anvil::patch {

void ObjectKeys::build_index() {
  if (indexed_) return;
  by_id_.reserve(level_.pieces.size());
  for (std::size_t i = 0; i < level_.pieces.size(); ++i)
    if (level_.pieces[i].is_object()) by_id_[id(i)].push_back(i);  // ascending: file order
  indexed_ = true;
}

u64 ObjectKeys::id(std::size_t piece) const {
  auto it = changed_.find(piece);
  return it != changed_.end() ? it->second : level_.pieces[piece].id;
}

std::string ObjectKeys::key(std::size_t piece) const {
  const Piece& p = level_.pieces[piece];
  if (!indexed_) return object_key(p, level_.game);
  u64 value = id(piece);
  std::string out = json_text::format_id(value, width_);
  auto it = by_id_.find(value);
  if (it != by_id_.end() && it->second.front() != piece) absl::StrAppend(&out, "@", p.offset);
  return out;
}

std::optional<std::size_t> ObjectKeys::find(std::string_view key) {
  std::size_t at = key.find('@');
  auto value = json_text::parse_id(key.substr(0, at), width_);
  if (!value) return std::nullopt;
  build_index();
  auto it = by_id_.find(*value);
  if (it == by_id_.end()) return std::nullopt;
  std::optional<std::size_t> piece;
  if (at == std::string_view::npos) {
    piece = it->second.front();
  } else {
    std::size_t offset = 0;
    std::string_view digits = key.substr(at + 1);
    if (std::from_chars(digits.data(), digits.data() + digits.size(), offset).ptr != digits.data() + digits.size())
      return std::nullopt;
    for (std::size_t candidate : it->second)
      if (level_.pieces[candidate].offset == offset) piece = candidate;
  }
  // Only the spelling `dump` prints names an object: not uppercase hex, not "@<offset>" of the first.
  if (piece && key != this->key(*piece)) return std::nullopt;
  return piece;
}

void ObjectKeys::set_id(std::size_t piece, u64 value) {
  u64 old = id(piece);
  if (old == value) return;
  build_index();
  auto& before = by_id_[old];
  before.erase(std::find(before.begin(), before.end(), piece));
  if (before.empty()) by_id_.erase(old);
  auto& after = by_id_[value];
  after.insert(std::upper_bound(after.begin(), after.end(), piece), piece);
  if (value == level_.pieces[piece].id)
    changed_.erase(piece);
  else
    changed_[piece] = value;
}

}  // namespace anvil::patch
