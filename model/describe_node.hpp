// The tree the describing archive (model/describe.hpp) makes of a layout declaration: one Node per field,
// with its wire type, its size or count rule, its checks and its alternatives. `anvilrt schema` prints
// the format reference, the Kaitai Struct and the ImHex descriptions from it (schema/).
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/primitives.hpp"

namespace anvil::describe {

// What a node of the tree is on the wire.
enum class Kind {
  kScalar,          // an integer or float: `type` is u8, u16, u32, u64 or f32 (i8 ... i64 signed)
  kId,              // an object id: `type` is id32 or id64 (JSON "0x" + hex)
  kOpaque,          // `size` bytes kept as they are (JSON hex)
  kText,            // `size` bytes of text padded with NULs (FORGE.md 1 names): JSON a string, or hex
  kConstant,        // a checked value (`constant`); shown in JSON only when it has a name
  kStruct,          // `children` in order
  kArray,           // `count` times `children[0]`
  kCounted,         // [count_type n] then n times `children[0]`
  kBytes,           // [count_type n] then n opaque bytes
  kPointer,         // an inline pointer: tag 00 then `children[0]`, or tag 03 for none
  kSwitch,          // [u32 class] then the fields of the alternative it names (`alternatives`)
  kPresentIf,       // `children[0]` when earlier fields say so (`condition`)
  kUntilTail,       // opaque bytes up to the next valid Visual tail (FORMAT.md 2.1)
  kEachFollowedBy,  // `count` times: `children[0]`, then a u32 constant of its place (`constants`)
  // Containers (FORGE.md):
  kSizeOf,      // a `type` scalar: the size of the byte run `sizes` further on (not in JSON: derived)
  kSizedBytes,  // opaque bytes whose size `sized_by` (a kSizeOf before it) or, when empty, `what` gives
  kHeads,       // [count_type n] then n times `children[0]` (the heads of a table; `children[1]`: bodies)
  kBodies,      // one `children[0]` per head read by the kHeads named `what`, in order
  kRestBytes,   // opaque bytes up to the end of the bytes being read
  kUntilEnd,    // `children[0]` repeated up to the end of the bytes being read
  kEither,      // `children[0]` (a kGroup) when `what` holds, else `children[1]` (a kGroup)
  kGroup,       // `children` in order: a form of a kEither, not a structure of its own
};

struct Node;

// One alternative of a class switch: its class id (none for the catch-all) and its fields.
struct Alternative {
  std::optional<u32> class_id;
  std::shared_ptr<const Node> body;  // a kStruct
};

struct Node {
  Kind kind = Kind::kStruct;
  std::string name;                       // the JSON key, FORMAT.md field name and patch pointer segment; may be empty
  std::string type;                       // scalar and id types; for a kStruct the C++ type (e.g. "ac2::VisualTail")
  std::string what;                       // a constant's or a switch's check, a kEither's condition (see Kind)
  std::string section;                    // the FORMAT.md section of a structure, when it names one
  std::string sized_by;                   // kSizedBytes: the kSizeOf field that gives its size, if any
  std::string size_expr;                  // kSizedBytes: its size as an expression of fields before it, if so
  std::string sizes;                      // kSizeOf: the byte run it gives the size of
  std::size_t size = 0;                   // bytes of a scalar, id, opaque run, text or constant
  std::size_t count = 0;                  // elements of a kArray or kEachFollowedBy
  std::string count_type;                 // kCounted, kBytes, kHeads: the stored count's type
  std::size_t element_wire_size = 0;      // kCounted, kHeads: what the count is checked against (FORMAT.md 2.6)
  u64 constant = 0;                       // kConstant
  std::vector<u32> constants;             // kEachFollowedBy
  std::vector<Node> children;             // see Kind
  std::vector<Alternative> alternatives;  // kSwitch
  std::vector<std::string> checks;        // checks on this field once read (layout.hpp require()), in words
  bool any_class = false;                 // kSwitch: the last alternative takes any other class
  bool shown = true;                      // whether JSON shows it (unnamed constants and sizes are not)
  // kStruct: the size the type states for the count checks (FORMAT.md 2.6): `wire_size` (exact) or
  // `min_wire_size` (a least), which tests hold against the declaration.
  std::optional<std::size_t> stated_size;
  bool stated_size_is_least = false;
};

// The fixed wire size of a node, or nullopt when it depends on the data.
std::optional<std::size_t> fixed_size(const Node& node);
// The fewest bytes a node can take (empty counts, null pointers, absent parts, the smallest
// alternative).
std::size_t min_size(const Node& node);

}  // namespace anvil::describe
