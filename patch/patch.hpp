// The patch engine (FORMAT.md section 5): applies a JSON patch to a carved level, all or nothing, over the
// JSON of the objects it touches and their model, never over the whole document's text. This header is
// the stable API the CLI (`anvilrt patch`) and fuzz harnesses call; everything else in patch/ is an
// implementation detail.
//
//   Level level = carve_level(bytes, game);
//   PatchOutcome out = apply_patch_text(level, patch_text);
//   if (out.error) { print out.error->message(); return out.error->exit_code; }
//   write_patched(level, out.result, target)  (pipeline/patch_output.hpp, a layer above: streams the
//   original bytes with the edited objects overlaid into a temporary, reads it back, check_written, renames)
//
// The data files of a `.forge` archive are patched as one document by patch/archive_patch.hpp, a layer
// that routes each operation to its data file and runs this engine there.
//
// Operations: RFC 6902 `test`, `replace`, `add`, `remove`, `move`, `copy` with RFC 6901 pointers into the
// document of section 4 (the `--full` document: `format`, `game`, `size`, `objects`, `spans`), and the bulk
// operations `swap_material`, `transform`, `set_switch_distance`, `scale_switch_distance`.
//
// Rules (each a PatchError, see kTestFailed / kBadPatch):
//  * The RFC 6902 operations apply to the document as RFC 6902 says, one after the other, each to the
//    document the one before left: `move` is a `remove` then an `add`, an `add` into an array inserts,
//    and a value holds what the patch wrote (an id written in uppercase is that string to a later `test`).
//  * Only the objects' JSON may change: `format`, `game`, `size`, `spans` and the `objects` member itself
//    are read-only (readable by `test` and as the `from` of `copy`); objects cannot be added or removed.
//  * Whether an edit is accepted is decided as `build` decides it: each object whose JSON an operation
//    changed is re-read exactly as `build` reads an object of a dump (patch/dump_object.hpp read_dump_object:
//    types, ranges, checked constants, unknown or missing fields, `offset`, and an encoding of its
//    `length`). So `patch` accepts an edit within an object that `build` accepts from an edited `--full`
//    dump (reordering the LOD slots, changing an unknown instance's class id), and refuses what build
//    refuses, with build's reason. An object may pass through states that do not re-read (a `remove`
//    then an `add`): the patch fails only if one is left at the end (the first in file order), or when
//    a bulk operation needs it; the error names the operation since which it has failed for that reason.
//  * `test` compares as RFC 6902 section 4.6 says, with the value as the document holds it: numbers by
//    value (1 equals 1.0, -0.0 equals 0; an f32 field holds the number `dump` prints, its shortest
//    decimal: 0.1, not 0.10000000149011612), strings exactly ("0x0BADF00D12345678" is not
//    "0x0badf00d12345678", and a NaN is its "f32:0x…" string), arrays element by element, objects member
//    by member in any order, a boolean never a number. Unequal is a failed test (exit 1); a path to
//    nothing is bad input (exit 2).
//  * An object's key follows its id: after an operation sets `/objects/K/id` to a valid id, the object is
//    `/objects/<new id>` for the later operations and K no longer names it; keys of objects sharing the
//    old or new id follow as `dump` would key the patched file (`<id>@<offset>` for all but the first).
//  * Bulk operations: zero matches is an error (exit 1); arithmetic exactly as section 5; a non-finite
//    operand or result (a NaN, an infinity) is refused, naming the field; `"objects": "*"` is every object.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/object.hpp"
#include "model/release.hpp"
#include "patch/rapidjson_document.hpp"
#include "reader/level.hpp"

namespace anvil::patch {

// Exit codes of FORMAT.md section 6.
inline constexpr int kTestFailed = 1;  // a `test` failed, a bulk operation matched nothing
inline constexpr int kBadPatch = 2;    // malformed patch, pointer to nothing, bad value, refused field

struct PatchError {
  static constexpr std::size_t kWholePatch = static_cast<std::size_t>(-1);

  std::size_t op_index = kWholePatch;  // 0-based; kWholePatch when the patch as a whole is malformed
  std::string pointer;                 // the operation's `path` (bulk operations: their name)
  std::string reason;
  int exit_code = kBadPatch;
  // The fault is the patched file's, not the patch's (a data file of the archive that does not read):
  // the CLI names that file, and says which operation needed it.
  bool input_fault = false;
  // The operation is not one (not an object, a member missing or of the wrong type, an unknown op):
  // bad input whatever it is applied to, so `mod` refuses it (exit 2) as `patch` does, where an operation
  // that is well formed but fails on this folder is the mod's failure to report (exit 1).
  bool malformed = false;

  // "op 3 (/objects/…/slots/7): reason", or the reason alone for the whole patch.
  std::string message() const;
  // The one line every caller reports it in: "PATCH: op 3 (…): reason"; with input_fault, "FILE: reason
  // (needed by op 3 (…) of PATCH)". An empty `patch_name` or `input` is left out with its separator (a
  // reason that names its file already; a report that is the patch's own).
  std::string line(const std::string& patch_name, const std::string& input) const;
};

// One field an operation changed (or, for `test`, checked), as JSON text printed f32-exact shortest.
struct Change {
  static constexpr std::size_t kNoPiece = static_cast<std::size_t>(-1);

  std::size_t op_index = 0;
  std::string op;                // "replace", "swap_material", "test", ...
  std::size_t piece = kNoPiece;  // the object it is in (an index into Level::pieces), if any
  std::string pointer;           // the changed location (a whole array where an element was added or removed),
                                 // with the object's key at that operation
  std::string old_value;         // JSON text; empty when the location did not exist
  std::string new_value;         // JSON text; empty for `test` and for a removed location
};

// ReleaseFn: model/release.hpp.
using anvil::ReleaseFn;

struct PatchOptions {
  bool record_changes = false;  // fill PatchResult::changes (for --dry-run)
  // Told, as a bulk operation passes over the objects in file order, of the ranges of level.bytes it is
  // done with (for a mapped file: a scan of every object then keeps only a window of it in memory).
  ReleaseFn release_input = {};
};

// The patched file is the original with the edited objects' encodings overlaid, each at its piece (same
// offset, same length); it is never held whole in memory (pipeline/patch_output.hpp streams it).
struct PatchResult {
  std::vector<std::size_t> edited;        // indices into Level::pieces of the objects the patch edited, ascending
  std::vector<Object> edited_objects;     // the patched model of those objects, parallel to `edited`
  std::vector<std::vector<u8>> overlays;  // their encodings (Piece::length bytes each), parallel to `edited`
  std::vector<Change> changes;            // with PatchOptions::record_changes
};

struct PatchOutcome {
  std::optional<PatchError> error;  // set: nothing may be written
  PatchResult result;               // meaningful only without error
};

// Applies `patch` (a JSON array of operations) to `level`. Never throws; never modifies `level`.
PatchOutcome apply_patch(const Level& level, const rapidjson::Value& patch, const PatchOptions& options = {});
// Parses `patch_json` (full-precision numbers) first; a parse error is a kWholePatch error.
PatchOutcome apply_patch_text(const Level& level, std::string_view patch_json, const PatchOptions& options = {});

// The parse of apply_patch_text, for the callers that route a patch's operations (patch/archive_patch.hpp):
// `out` holds the patch, or the kWholePatch error is returned.
std::optional<PatchError> parse_patch_text(std::string_view patch_json, rapidjson::Document& out);
// Whether a patch is a JSON array not nested deeper than apply_patch takes; the kWholePatch error if not.
std::optional<PatchError> check_patch_shape(const rapidjson::Value& patch);

// The whole patched file in memory: the original bytes with the overlays. For tests and small files only;
// `anvilrt patch` streams it (pipeline/patch_output.hpp).
std::vector<u8> patched_bytes(const Level& original, const PatchResult& result);

}  // namespace anvil::patch
