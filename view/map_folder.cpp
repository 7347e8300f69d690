// The map of a game folder (view/map_folder.hpp).
#include "view/map_folder.hpp"

#include "view/folder_level_set.hpp"

namespace anvil::view {

MapRun write_folder_map(const std::string& dir, const folder::FolderOptions& options,
                        std::span<const NamedPatch> patches, const MapRequest& request) {
  MapRun run{{}, absl::UnknownError("")};
  auto opened = folder::open_game_folder(dir);
  if (!opened.ok()) {
    run.summary = opened.status();
    return run;
  }
  run.recovered = opened->recovered;
  folder::FolderLevels levels(std::move(*opened), options);
  auto set = FolderLevelSet::open(levels);
  if (!set.ok()) {
    run.summary = set.status();
    return run;
  }
  MapInput input;
  input.path = dir;
  input.set = set->get();
  input.folder = set->get();
  run.summary = write_map(input, patches, request);
  return run;
}

}  // namespace anvil::view
