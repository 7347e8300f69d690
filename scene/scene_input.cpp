// What export and import read (scene/scene_input.hpp), opened by the map's one opener (view::with_map_input).
#include "scene/scene_input.hpp"

#include <absl/strings/str_cat.h>

#include <string>
#include <vector>

#include "patch/json_util.hpp"
#include "platform/paths.hpp"
#include "view/folder_level_set.hpp"

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
  std::vector<std::string> recovered;
  return view::with_map_input(target, recovered, [&](const view::MapInput& opened) {
    SceneInput input;
    input.path = opened.path;
    input.set = opened.set;
    input.game = opened.set->game();
    input.recovered = recovered;
    if (opened.folder) {
      input.kind = InputKind::folder;
      for (std::size_t i = 0; i < opened.folder->size(); ++i) {
        const std::string& name = opened.folder->datafile_name(i);
        const std::string& whole = opened.folder->name(i);  // "A.forge/NAME"
        input.archives.push_back(whole.substr(0, whole.size() - name.size() - 1));
        input.datafiles.push_back(name);
      }
    } else if (opened.archive) {
      input.kind = InputKind::archive;
      const std::string archive = platform::utf8_of(platform::path_of(opened.path).filename());
      for (std::size_t i = 0; i < input.set->size(); ++i) {
        input.archives.push_back(archive);
        input.datafiles.push_back(input.set->name(i));
      }
    } else {
      input.kind = opened.level_file ? InputKind::level_file : InputKind::data_file;
      input.archives.emplace_back();
      input.datafiles.emplace_back();
    }
    if (auto s = read_instances(input, opened.level_file, threads); !s.ok()) return s;
    return use(input);
  });
}

}  // namespace anvil::scene
