#include "view/map_run.hpp"

#include <optional>

#include "reader/forge/archive_levels.hpp"
#include "reader/level_source.hpp"
#include "view/one_level_set.hpp"

namespace anvil::view {

MapRun draw_map(const MapTarget& target, std::span<const NamedPatch> patches, const MapRequest& request) {
  if (!target.folder.empty()) return write_folder_map(target.folder, target.folder_options, patches, request);
  const InputView& file = target.file;
  std::optional<forge::ArchiveLevels> archive_levels;
  std::optional<OneLevelSet> one;
  MapInput input;
  input.path = file.path;
  if (file.archive) {
    archive_levels.emplace(file.bytes, *file.archive, file.archive_game);  // every data file
    input.set = &*archive_levels;
    input.archive = true;
    input.variant = file.archive->variant();
  } else {
    one.emplace(file.bytes, file.source, target.game);
    input.set = &*one;
    input.variant = file.source.variant;
    if (file.source.kind == SourceKind::level_file) input.level_file = file.bytes;
  }
  return {{}, write_map(input, patches, request)};
}

}  // namespace anvil::view
