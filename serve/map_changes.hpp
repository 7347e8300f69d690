// What the pending patch changes on the editor's map (serve/map_view.hpp): the page holds every instance of
// the input once (its marks), and after each edit asks only for the difference, paired as `anvilrt map
// --patch` pairs them (view/map_scene.cpp): an object's instances before and after, by index when their
// count is kept, else by equal positions in order, the rest added or removed.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <cstddef>
#include <string>
#include <tuple>
#include <vector>

#include "view/placed_instances.hpp"

namespace anvil::serve {

// The records of `before` in runs, one run per object (an object's instances are consecutive records:
// view/placed_instances.hpp), and each object's run by its data file, id and repeated offset.
struct MapRuns {
  std::vector<u32> first;   // per run: its first record; one more, the end
  std::vector<u32> run_of;  // per record: its run
  absl::flat_hash_map<std::tuple<u32, u64, u64>, u32> by_object;
};
MapRuns runs_of(const view::PlacedInstances& before);

struct MapChange {
  u32 before = 0;  // the record before
  u32 index = 0;   // N of …/instances/N after (it differs when the object's count changed)
  double x = 0, y = 0, z = 0;
};
struct MapAdded {
  u32 datafile = 0;
  std::string key;
  u32 index = 0;
  double x = 0, y = 0, z = 0;
};
struct MapChanges {
  std::vector<MapChange> changed;  // moved or renumbered
  std::vector<u32> removed;        // records before, gone after
  std::vector<MapAdded> added;
};

// `after` compared with `before` (`runs`: runs_of(before)), object by object; an object found where it
// was (the next run of before) is not looked up, so that the data files no edit touched cost one pass.
MapChanges compare_marks(const view::PlacedInstances& before, const MapRuns& runs, const view::PlacedInstances& after);

}  // namespace anvil::serve
