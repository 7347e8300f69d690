// What a scene changed of one Visual's instances, written as patch operations (docs/patches.md) that
// every input a patch applies to takes, a game folder's mods too (which route no bulk operation): RFC 6902
// `replace`, `add` and `remove` on the Visual's instance lists, following what `duplicate_instance` and
// `remove_instance` do to them. An instance is the element N of the Visual's own list and of every list of
// its LOD slots that has the same count (FORMAT.md 2.2; patch/bulk_operands.hpp instance_lists), with the
// bound N of each `instance_bounds` of that count. A slot's matrix N follows the own one's move when it was
// the same matrix (bit for bit); a slot that held another matrix keeps it (a copy of it for a new instance).
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "model/object.hpp"
#include "model/primitives.hpp"

namespace anvil::scene {

struct InstanceEdits {
  std::vector<std::pair<std::size_t, Matrix>> moved;  // instance N and its new matrix
  std::vector<std::pair<std::size_t, Matrix>> added;  // a copy of instance N, at this matrix
  std::vector<std::size_t> removed;                   // instance N
  bool empty() const { return moved.empty() && added.empty() && removed.empty(); }
};

// The operations, one JSON object each (appended to `ops`), that make `edits` of the Visual `visual`,
// whose pointer is `base` (/…/objects/KEY): moves first, then the copies appended in order, then the
// removals from the highest index down (so that each names an index of the list as it then is). `visual`
// is changed as the operations change it.
void append_instance_ops(Object& visual, const std::string& base, const InstanceEdits& edits,
                         std::vector<std::string>& ops);

// A JSON string of `text`.
std::string json_string(const std::string& text);

}  // namespace anvil::scene
