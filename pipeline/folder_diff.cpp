#include "pipeline/folder_diff.hpp"

#include <absl/strings/str_cat.h>

#include <algorithm>

#include "model/forge/forge_error.hpp"
#include "pipeline/game_folder.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/input_file.hpp"

namespace anvil::folder {

bool FolderDiff::identical() const {
  return only_in_a.empty() && only_in_b.empty() &&
         std::all_of(archives.begin(), archives.end(), [](const ArchivePairDiff& a) { return a.diff.identical(); });
}

std::vector<patch::DiffOp> FolderDiff::ops() const {
  std::vector<patch::DiffOp> all;
  for (const ArchivePairDiff& a : archives) {
    const std::string prefix = archive_pointer(a.name);
    for (patch::DiffOp op : a.diff.ops()) {
      op.path = prefix + op.path;
      all.push_back(std::move(op));
    }
  }
  return all;
}

namespace {

// One archive of a comparison, its tables read; its layout is found from the data files compared.
struct Side {
  InputFile file;
  forge::Archive archive;
};

absl::StatusOr<Side> open_side(const std::string& path) {
  auto file = InputFile::open(path);
  if (!file.ok()) return file.status();
  auto archive = forge::read_archive_tables(file->bytes(), &*file);
  if (!archive.ok()) return forge::with_archive(archive.status(), path);
  return Side{std::move(*file), std::move(*archive)};
}

}  // namespace

absl::StatusOr<FolderDiff> diff_folders(const std::string& dir_a, const std::string& dir_b, std::optional<Game> game) {
  auto a = open_game_folder(dir_a);
  if (!a.ok()) return a.status();
  auto b = open_game_folder(dir_b);
  if (!b.ok()) return b.status();
  FolderDiff diff;
  for (const GameFolder* opened : {&*a, &*b})
    if (!opened->recovered.empty()) diff.recovered.push_back(opened->recovered);
  for (const std::string& name : a->archives)
    if (!b->find(name)) diff.only_in_a.push_back(name);
  for (const std::string& name : b->archives)
    if (!a->find(name)) diff.only_in_b.push_back(name);
  for (std::size_t i = 0; i < a->archives.size(); ++i) {
    auto j = b->find(a->archives[i]);
    if (!j) continue;
    auto side_a = open_side(a->path(i));
    if (!side_a.ok()) return side_a.status();
    auto side_b = open_side(b->path(*j));
    if (!side_b.ok()) return side_b.status();
    auto compared = patch::diff_archives({side_a->file, side_a->archive}, {side_b->file, side_b->archive}, game);
    if (!compared.ok()) return compared.status();
    // The first archive that decides the dialect decides it for the rest.
    if (!game && std::any_of(compared->datafiles.begin(), compared->datafiles.end(), [](const patch::DataFileDiff& d) {
          return d.state == patch::DataFileState::changed || d.state == patch::DataFileState::changed_outside;
        }))
      game = compared->game;
    diff.archives.push_back({a->archives[i], std::move(*compared)});
  }
  return diff;
}

}  // namespace anvil::folder
