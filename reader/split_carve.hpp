// One file carved by several carvers at once, giving exactly the one carver's objects and near misses.
//
// The carve is a function of where it starts (reader/carver.hpp: from a cursor it tries the candidates
// after it in order, and the first that parses is the next object). So the carve from 0 that reaches an
// object ending at e goes on as the carve from e. Part k starts at k/parts of the file; when part k's
// object ends at e past the start of a later part m, and part m's objects have a gap around e (its
// object before ends at or before e, its next starts at or after e, so it tried every candidate after
// e that the carve from e tries), the carve from e is part m's from that object on: part k hands over
// to it there. Where no later part has such a gap (e falls inside one of its objects, a false start)
// part k carves on, and checks again at its next object's end. Each part's objects that the one carve
// would not find are dropped; their visits have run, and must not have side effects that matter.
#pragma once

#include <functional>
#include <optional>
#include <span>
#include <vector>

#include "model/level.hpp"
#include "model/object.hpp"
#include "model/progress.hpp"

namespace anvil {

// Called on part `part`'s thread for each object it carves, in its order; false stops that part there.
using SplitVisit = std::function<bool(unsigned part, const Extent& extent, const Object& object)>;

struct SplitCarve {
  // The one carver's objects in file order, up to the end or to the first object whose visit said stop.
  std::vector<Extent> objects;
  // The one carver's near misses (candidates that failed a check) up to the same point, ascending.
  std::vector<std::size_t> near_misses;
  // The part whose visit said stop at objects.back(), if one did.
  std::optional<unsigned> stopped_part;
};

struct SplitOptions {
  unsigned parts = 1;  // at most; no part is shorter than `min_part`
  std::size_t min_part = std::size_t{1} << 20;
};

// `progress` hears, on the calling thread, the bytes the parts have passed (about ten times a second).
SplitCarve split_carve(std::span<const u8> file, Game game, const SplitOptions& options, const SplitVisit& visit,
                       const ProgressFn& progress = {});

}  // namespace anvil
