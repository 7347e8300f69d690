// The keys of the objects in the patched document (FORMAT.md section 4: "0x<id>", or "0x<id>@<offset>"
// for an object whose id an earlier object has), kept current while a patch changes ids: once an
// operation has set an object's "id", the object's key is the new one and its old key addresses
// nothing (or the object that now has that id first); the keys of other objects with the old or the
// new id follow, as `dump` would key the patched file.
#pragma once

#include <absl/container/flat_hash_map.h>
#include <absl/container/inlined_vector.h>

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

#include "model/dialect.hpp"
#include "reader/level.hpp"

namespace anvil::patch {

class ObjectKeys {
 public:
  explicit ObjectKeys(const Level& level) : level_(level), width_(dialect::facts(level.game).id_width) {}

  // The object piece that `key` (exactly as `dump` spells it) names now.
  std::optional<std::size_t> find(std::string_view key);
  // The key of an object piece now.
  std::string key(std::size_t piece) const;
  u64 id(std::size_t piece) const;
  void set_id(std::size_t piece, u64 id);
  std::size_t id_width() const { return width_; }

 private:
  void build_index();

  const Level& level_;
  std::size_t width_;
  bool indexed_ = false;  // built on the first lookup: a patch of bulk operations never needs it
  // The object pieces of each id, in file order: the first is keyed by the id alone.
  absl::flat_hash_map<u64, absl::InlinedVector<std::size_t, 1>> by_id_;
  absl::flat_hash_map<std::size_t, u64> changed_;  // the pieces whose id the patch changed
};

}  // namespace anvil::patch
