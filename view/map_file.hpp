// `anvilrt map`: the placed instances of an input (view/placed_instances.hpp), before and, with patches,
// after them (view/patched_levels.hpp), drawn as SVG or PNG (view/map_svg.hpp, view/map_png.hpp) and
// written atomically (platform/replace_file.hpp).
#pragma once

#include <absl/status/status.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/forge/variant.hpp"
#include "reader/level_set.hpp"
#include "view/map_scene.hpp"

namespace anvil::view {

class FolderLevelSet;

struct MapInput {
  std::string path;  // named in errors
  LevelSet* set = nullptr;
  bool archive = false;  // the set is an archive's data files (patched as one document)
  // The set is this game folder's data files (patched as the folder's document; `archive` not read).
  FolderLevelSet* folder = nullptr;
  forge::ForgeVariant variant;  // an archive's, or a lone data file's
  // A level file, carved whole: read in parts on all threads without a second parse.
  std::optional<std::span<const u8>> level_file;
};

struct NamedPatch {
  std::string name;  // as given, for errors
  std::string text;
};

struct MapRequest {
  MapOptions options;
  bool png = false;
  std::string output;  // a path, or "-" for standard output
  unsigned threads = 1;
};

struct MapSummary {
  std::size_t instances = 0;  // drawn (after the patches, when given)
  std::size_t moved = 0, added = 0, removed = 0, unplaced = 0;
};

// Reads the input's instances, applies the patches in order, draws and writes the map. Errors are one line
// naming the input, a patch or the output; a failed `test` of a patch is FailedPrecondition, an --objects
// key that names no instance NotFound.
absl::StatusOr<MapSummary> write_map(MapInput input, std::span<const NamedPatch> patches, const MapRequest& request);

}  // namespace anvil::view

namespace anvil::view {

// The instances after `patches` (`before`: the input's, as placed_instances gives them): those of the data
// files no patch edited taken from `before`, the edited ones read again, in set order (what `map --patch`
// draws; the editor's map of the pending patch, serve/). Errors as write_map's.
absl::StatusOr<PlacedInstances> instances_after(const MapInput& input, std::span<const NamedPatch> patches,
                                                const PlacedInstances& before, unsigned threads);

}  // namespace anvil::view
