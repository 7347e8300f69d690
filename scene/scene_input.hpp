// What `anvilrt export` and `anvilrt import` read: the level set a command opened (view/map_run.hpp's
// MapTarget: a level file, a data file, an archive or a game folder, the map's door) with every placed
// instance and its whole matrix (view/placed_instances.hpp), and for each data file of the set the names
// a scene node's `extras` carry and a patch's pointers use.
#pragma once

#include <absl/status/status.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "reader/level_set.hpp"
#include "view/map_run.hpp"
#include "view/placed_instances.hpp"

namespace anvil::scene {

enum class InputKind { level_file, data_file, archive, folder };

struct SceneInput {
  std::string path;  // named in errors
  InputKind kind = InputKind::level_file;
  Game game = Game::ac2;
  LevelSet* set = nullptr;
  view::PlacedInstances placed;  // with matrices
  // Per data file of the set: its archive's file name ("" for a level file or data file) and its name in
  // that archive ("" for a level file or data file).
  std::vector<std::string> archives, datafiles;
  std::vector<std::string> recovered;  // a game folder: what opening it finished or rolled back

  // The data file of the set that `archive` and `datafile` name (an archive's own name is not checked:
  // a scene exported from a copy of it applies), if any.
  std::optional<std::size_t> member(const std::string& archive, const std::string& datafile) const;
  // The JSON pointer of the object `key` of data file `member`, as a patch of this input addresses it:
  // /objects/KEY, /datafiles/NAME/objects/KEY or /archives/A.forge/datafiles/NAME/objects/KEY.
  std::string object_pointer(std::size_t member, const std::string& key) const;
  // Whether an object may change size here (not inside a level file: docs/patches.md section 6).
  bool resizable() const { return kind != InputKind::level_file; }
};

// Opens `target`, reads its placed instances with their matrices on up to `threads` threads and calls
// `use` with them while the set is open. Errors: one line naming the input (and its data file).
absl::Status with_scene_input(const view::MapTarget& target, unsigned threads,
                              const std::function<absl::Status(SceneInput&)>& use);

}  // namespace anvil::scene
