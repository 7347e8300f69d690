#include "view/map_run.hpp"

#include <optional>

#include "reader/forge/archive_levels.hpp"
#include "reader/level_source.hpp"
#include "view/folder_level_set.hpp"
#include "view/one_level_set.hpp"

namespace anvil::view {
namespace {

absl::Status with_folder_input(const MapTarget& target, std::vector<std::string>& recovered,
                               const std::function<absl::Status(const MapInput&)>& use) {
  auto opened = folder::open_game_folder(target.folder);
  if (!opened.ok()) return opened.status();
  if (!opened->recovered.empty()) recovered.push_back(opened->recovered);
  folder::FolderLevels levels(std::move(*opened), target.folder_options);
  auto set = FolderLevelSet::open(levels);
  if (!set.ok()) return set.status();
  MapInput input;
  input.path = target.folder;
  input.set = set->get();
  input.folder = set->get();
  return use(input);
}

}  // namespace

absl::Status with_map_input(const MapTarget& target, std::vector<std::string>& recovered,
                            const std::function<absl::Status(const MapInput&)>& use) {
  if (!target.folder.empty()) return with_folder_input(target, recovered, use);
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
  return use(input);
}

MapRun draw_map(const MapTarget& target, std::span<const NamedPatch> patches, const MapRequest& request) {
  MapRun run{{}, absl::UnknownError("")};
  const absl::Status opened = with_map_input(target, run.recovered, [&](const MapInput& input) {
    run.summary = write_map(input, patches, request);
    return absl::OkStatus();
  });
  if (!opened.ok()) run.summary = opened;
  return run;
}

}  // namespace anvil::view
