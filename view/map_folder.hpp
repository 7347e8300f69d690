// `anvilrt map DIR`: the map of a game folder (docs/game-folders.md), every data file of every archive, as
// one level set (view/folder_level_set.hpp); with patches, the folder's patches as `anvilrt patch DIR`
// applies each, in order. Nothing is written but the map.
#pragma once

#include <absl/status/statusor.h>

#include <span>
#include <string>
#include <vector>

#include "pipeline/game_folder.hpp"
#include "view/map_file.hpp"

namespace anvil::view {

// A map written, or why not.
struct MapRun {
  std::vector<std::string> recovered;  // a game folder: what opening it finished or rolled back, one line each
  absl::StatusOr<MapSummary> summary;  // errors as write_map's (a folder's, one line)
};

// Opens DIR read-only (every archive), then draws and writes its map as write_map does, the patches applied
// in order.
MapRun write_folder_map(const std::string& dir, const folder::FolderOptions& options,
                        std::span<const NamedPatch> patches, const MapRequest& request);

}  // namespace anvil::view
