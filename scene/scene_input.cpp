// Opening what export and import read (scene/scene_input.hpp), as the map opens it (view/map_run.cpp).
#include "scene/scene_input.hpp"

#include <absl/strings/str_cat.h>

#include <filesystem>

#include "patch/json_util.hpp"
#include "platform/paths.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/level_source.hpp"
#include "view/folder_level_set.hpp"
#include "view/one_level_set.hpp"

namespace anvil::scene {
namespace {

absl::Status named_input(const std::string& path, const absl::Status& status) {
  return absl::Status(status.code(), absl::StrCat(path, ": ", status.message()));
}

absl::Status read_instances(SceneInput& input, std::optional<std::span<const u8>> level_file, unsigned threads) {
  if (level_file) {
    input.placed = view::placed_instances_in_level_file(*level_file, input.game, threads, true);
    return absl::OkStatus();
  }
  auto placed = view::placed_instances(*input.set, threads, nullptr, true);
  if (!placed.ok()) return named_input(input.path, placed.status());
  input.placed = std::move(*placed);
  return absl::OkStatus();
}

absl::Status with_folder(const view::MapTarget& target, unsigned threads,
                         const std::function<absl::Status(SceneInput&)>& use) {
  auto opened = folder::open_game_folder(target.folder);
  if (!opened.ok()) return opened.status();
  SceneInput input;
  input.recovered = opened->recovered;
  folder::FolderLevels levels(std::move(*opened), target.folder_options);
  auto set = view::FolderLevelSet::open(levels);
  if (!set.ok()) return set.status();
  view::FolderLevelSet& folder_set = **set;
  input.path = target.folder;
  input.kind = InputKind::folder;
  input.game = folder_set.game();
  input.set = &folder_set;
  for (std::size_t i = 0; i < folder_set.size(); ++i) {
    const std::string& name = folder_set.datafile_name(i);
    const std::string& whole = folder_set.name(i);  // "A.forge/NAME"
    input.archives.push_back(whole.substr(0, whole.size() - name.size() - 1));
    input.datafiles.push_back(name);
  }
  if (auto s = read_instances(input, std::nullopt, threads); !s.ok()) return s;
  return use(input);
}

}  // namespace

std::optional<std::size_t> SceneInput::member(const std::string& archive, const std::string& datafile) const {
  for (std::size_t i = 0; i < datafiles.size(); ++i)
    if (datafiles[i] == datafile && (kind != InputKind::folder || archives[i] == archive)) return i;
  return std::nullopt;
}

std::string SceneInput::object_pointer(std::size_t m, const std::string& key) const {
  const std::string object = "/objects/" + patch::escape_segment(key);
  switch (kind) {
    case InputKind::level_file:
    case InputKind::data_file:
      return object;
    case InputKind::archive:
      return absl::StrCat("/datafiles/", patch::escape_segment(datafiles[m]), object);
    case InputKind::folder:
      return absl::StrCat("/archives/", patch::escape_segment(archives[m]), "/datafiles/",
                          patch::escape_segment(datafiles[m]), object);
  }
  return object;
}

absl::Status with_scene_input(const view::MapTarget& target, unsigned threads,
                              const std::function<absl::Status(SceneInput&)>& use) {
  if (!target.folder.empty()) return with_folder(target, threads, use);
  const InputView& file = target.file;
  std::optional<forge::ArchiveLevels> archive_levels;
  std::optional<view::OneLevelSet> one;
  SceneInput input;
  input.path = file.path;
  std::optional<std::span<const u8>> level_file;
  if (file.archive) {
    archive_levels.emplace(file.bytes, *file.archive, file.archive_game);  // every data file
    input.set = &*archive_levels;
    input.kind = InputKind::archive;
    input.game = file.archive_game;
    const std::string archive = platform::utf8_of(platform::path_of(file.path).filename());
    for (std::size_t i = 0; i < input.set->size(); ++i) {
      input.archives.push_back(archive);
      input.datafiles.push_back(input.set->name(i));
    }
  } else {
    one.emplace(file.bytes, file.source, target.game);
    input.set = &*one;
    input.game = target.game;
    input.kind = file.source.kind == SourceKind::level_file ? InputKind::level_file : InputKind::data_file;
    if (input.kind == InputKind::level_file) level_file = file.bytes;
    input.archives.emplace_back();
    input.datafiles.emplace_back();
  }
  if (auto s = read_instances(input, level_file, threads); !s.ok()) return s;
  return use(input);
}

}  // namespace anvil::scene
