// `diff`: the patch that turns one level file into another carved into the same objects (FORMAT.md
// sections 5 and 6). Per changed field, in file order: a `test` of the old value and a `replace` with
// the new one. An object whose change is not field by field (an array of another size, a pointer that
// became null, a slot of another class, offsetting count changes of the same total length) is tested
// and replaced whole. Changes of an object's id come last, each addressed by the key the object has
// once the earlier ones are applied (a key follows its id).
// Two decompressed data files (levels carved in their bodies) may differ in size where objects grew or
// shrank (FORGE.md 5): the same pieces in the same order, each opaque one byte for byte but for the
// entries' `data_size` and `file_size`, which must have changed by the growth of the objects in that
// entry's body. There an array of another length becomes `add`s of its new elements (or a `test` and a
// `remove` of each element it lost, the last first) after the changes of the elements both hold.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reader/level.hpp"

namespace anvil::patch {

struct DiffOp {
  enum Kind { kReplace, kAdd, kRemove };
  std::string path;       // RFC 6901 pointer into the document of A
  std::string old_value;  // JSON text (f32-exact shortest); kAdd: none
  std::string new_value;  // kRemove: none
  Kind kind = kReplace;   // kReplace: `test` + `replace`; kAdd: `add`; kRemove: `test` + `remove`
};

struct DiffOutcome {
  std::optional<std::string> error;  // A and B do not carve into the same objects with the same opaque bytes
  std::vector<DiffOp> ops;
};

// Both levels must be of the same dialect.
DiffOutcome diff_levels(const Level& a, const Level& b);

// The patch text: a JSON array, one operation per line.
std::string diff_to_patch_json(const std::vector<DiffOp>& ops);

}  // namespace anvil::patch
