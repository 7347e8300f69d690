// Every placed instance of a level set: for each Visual that places instances (the matrices of its own
// list, FORMAT.md 2.2/2.3/3.2: a LODSelectorInstance's, or a direct `ac2` MeshInstanceData's; the lists of
// its LOD slots hold the same instances again, level by level, as `transform` and the instance operations
// see them: patch/bulk.cpp), one record per instance with where it stands and what it shows. What the
// map draws and the editor searches (`anvilrt map`, `anvilrt serve`). Values are taken from the typed
// model, never from the bytes.
#pragma once

#include <absl/status/statusor.h>

#include <cstddef>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/object.hpp"
#include "reader/level_set.hpp"

namespace anvil::view {

struct PlacedInstance {
  std::string datafile;        // the data file's name in the set (its key under "datafiles"); "" for a lone level
  std::string key;             // the object's key, as `dump` prints it ("0x…", "0x…@offset" for a repeated id)
  std::size_t index = 0;       // N of …/instances/N
  double x = 0, y = 0, z = 0;  // the matrix's translation (model/primitives.hpp kMatrixTranslation)
  std::string shows;           // the key of the Mesh or LODSelector it shows; "" when it names none

  bool operator==(const PlacedInstance&) const = default;
};

// The instances `object` places, appended to `out` (none for an object that places none).
void append_instances(const Object& object, std::string_view datafile, std::string_view key,
                      std::vector<PlacedInstance>& out);

// Every instance of every data file of `set` (those flagged in `among`, when given), in set order and
// within a data file in file order; each data file's objects parsed on up to `threads` threads, and the
// data file released again. The error (one line, naming the data file) of the first that does not read.
absl::StatusOr<std::vector<PlacedInstance>> placed_instances(LevelSet& set, unsigned threads,
                                                             const std::vector<bool>* among = nullptr);

// The same records for one level file carved whole (datafile ""), its objects visited as the carve finds
// them, in up to `threads` parts at once (reader/split_carve.hpp), so that no object is parsed twice.
std::vector<PlacedInstance> placed_instances_in_level_file(std::span<const u8> bytes, Game game, unsigned threads);

}  // namespace anvil::view
