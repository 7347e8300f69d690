// What `anvilrt map`, `export` and `import` read: a game folder (every data file of every archive, one level set:
// view/folder_level_set.hpp), or one file the command opened (a level file, a decompressed data file, or a
// .forge archive's every data file), opened once here as a level set (with_map_input); `map` draws and
// writes it as write_map does (view/map_file.hpp), its patches a folder's as `anvilrt patch DIR` applies
// each. The command line reads the inputs and the patches and prints what the map holds.
#pragma once

#include <absl/status/status.h>
#include <absl/status/statusor.h>

#include <functional>
#include <span>
#include <string>
#include <vector>

#include "pipeline/game_folder.hpp"
#include "pipeline/input_view.hpp"
#include "reader/level.hpp"
#include "view/map_file.hpp"

namespace anvil::view {

struct MapTarget {
  std::string folder;  // a game folder's path: its archives' data files are drawn, and `file` is not read
  folder::FolderOptions folder_options;
  InputView file;         // otherwise: the file as the command opened it (an archive with its tables read)
  Game game = Game::ac2;  // a level file's or a data file's dialect (an archive's is file.archive_game)
};

// Opens `target` read-only (a game folder: every archive, after what opening a folder finishes or rolls back,
// said into `recovered`) and calls `use` with it while it is open. Errors: one line naming the input.
absl::Status with_map_input(const MapTarget& target, std::vector<std::string>& recovered,
                            const std::function<absl::Status(const MapInput&)>& use);

// A map written, or why not.
struct MapRun {
  std::vector<std::string> recovered;  // a game folder: what opening it finished or rolled back, one line each
  absl::StatusOr<MapSummary> summary;  // errors as write_map's (a folder's, one line)
};

// Draws and writes the map of `target`, the patches applied in order. Errors as write_map's.
MapRun draw_map(const MapTarget& target, std::span<const NamedPatch> patches, const MapRequest& request);

}  // namespace anvil::view
