// What each mod of a load order does to a game folder, and where two mods fight (docs/mods.md, check):
// a mod's effect is the last value it wrote to each field (recorded changes of the folder patch,
// pipeline/folder_patch.hpp); two mods conflict where they write the same field, or one writes a
// field inside one the other replaces or removes, and leave it different values. Equal values are no
// conflict.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "patch/patch.hpp"
#include "pipeline/mods/mod_state.hpp"

namespace anvil::mods {

// The effect of `changes` (one mod's, in order; `test`s are reads and change nothing).
ModEffect effect_of(std::span<const patch::Change> changes);

struct Conflict {
  std::string earlier, later;                             // the mods, in load order
  std::string pointer;                                    // the field where they differ (the narrower of the two)
  std::optional<std::string> earlier_value, later_value;  // there, as JSON text; nothing: removed
};

struct NamedEffect {
  std::string name;
  const ModEffect* effect = nullptr;
};

// The conflicts between the mods of `order` that involve a mod from `first_new` on (the mods before it
// were installed already, their conflicts settled then), in order of the later mod, then pointer.
std::vector<Conflict> find_conflicts(std::span<const NamedEffect> order, std::size_t first_new);

// "nothing" for a removed field, else the value.
std::string value_or_removed(const std::optional<std::string>& value);

}  // namespace anvil::mods
