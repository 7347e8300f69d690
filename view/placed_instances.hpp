// Every placed instance of a level set: for each Visual that places instances (the matrices of its own
// list, FORMAT.md 2.2/2.3/3.2: a LODSelectorInstance's, or a direct `ac2` MeshInstanceData's; the lists of
// its LOD slots hold the same instances again, level by level, as `transform` and the instance operations
// see them: patch/bulk.cpp), one record per instance with where it stands and what it shows. What the
// map draws and the editor searches (`anvilrt map`, `anvilrt serve`). Values are taken from the typed
// model, never from the bytes.
//
// A record holds numbers only: a level places hundreds of thousands of instances, and their keys are
// text only where a map writes them (format_key, straight into its output).
#pragma once

#include <absl/status/statusor.h>

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "model/json_text.hpp"
#include "model/object.hpp"
#include "model/primitives.hpp"
#include "reader/level_set.hpp"

namespace anvil::view {

struct PlacedInstance {
  static constexpr u64 kNotRepeated = ~u64{0};

  u64 id = 0;                      // the object's id
  u64 repeated_at = kNotRepeated;  // an id an object before it has: its offset (its key is "0x…@offset")
  u64 shows = 0;                   // the id of the Mesh or LODSelector it shows, when has_shows
  std::size_t index = 0;           // N of …/instances/N
  double x = 0, y = 0, z = 0;      // the matrix's translation (model/primitives.hpp kMatrixTranslation)
  u32 datafile = 0;                // its data file: an index into PlacedInstances::datafiles
  u8 id_width = 8;                 // bytes of its ids (the dialect's)
  bool has_shows = false;

  bool operator==(const PlacedInstance&) const = default;
};

// A record's key as `dump` prints it ("0x…", "0x…@offset" for a repeated id), written at `out` (room for
// kMaxKeyChars); its length.
inline constexpr std::size_t kMaxKeyChars = json_text::kMaxIdChars + 1 + 20;
std::size_t format_key(char* out, const PlacedInstance& p);
std::string key_of(const PlacedInstance& p);
// The key of what it shows, "" when it names none.
std::string shows_of(const PlacedInstance& p);

struct PlacedInstances {
  std::vector<std::string> datafiles;  // the set's data files' names in set order ("" for a lone level)
  std::vector<PlacedInstance> records;
  // Each record's whole matrix (the one whose elements 12-14 are its x, y, z), when asked for (`export`,
  // scene/); empty otherwise.
  std::vector<Matrix> matrices;

  bool operator==(const PlacedInstances&) const = default;
};

// The instances `object` places (of data file 0, its id not repeated), appended to `out`.
void append_instances(const Object& object, std::vector<PlacedInstance>& out);

// Every instance of every data file of `set` (those flagged in `among`, when given), in set order and
// within a data file in file order; each data file's objects parsed on up to `threads` threads, and the
// data file released again. The error (one line, naming the data file) of the first that does not read.
// `with_matrices`: PlacedInstances::matrices filled too.
absl::StatusOr<PlacedInstances> placed_instances(LevelSet& set, unsigned threads,
                                                 const std::vector<bool>* among = nullptr, bool with_matrices = false);

// The same records for one level file carved whole (data file 0, named ""), its objects visited as the
// carve finds them, in up to `threads` parts at once (reader/split_carve.hpp), so that no object is parsed
// twice.
PlacedInstances placed_instances_in_level_file(std::span<const u8> bytes, Game game, unsigned threads,
                                               bool with_matrices = false);

}  // namespace anvil::view
