// A game folder as one level set (view/folder_level_set.hpp).
#include "view/folder_level_set.hpp"

#include <absl/strings/str_cat.h>

#include "reader/forge/archive_levels.hpp"

namespace anvil::view {

absl::StatusOr<std::unique_ptr<FolderLevelSet>> FolderLevelSet::open(folder::FolderLevels& folder) {
  std::unique_ptr<FolderLevelSet> set(new FolderLevelSet(folder));
  for (std::size_t a = 0; a < folder.size(); ++a) {
    auto levels = folder.levels(a);
    if (!levels.ok()) return levels.status();  // names the archive
    if (a == 0) set->game_ = (*levels)->game();
    set->first_.push_back(set->members_.size());
    for (std::size_t d = 0; d < (*levels)->size(); ++d)
      set->members_.push_back({a, d, absl::StrCat(folder.name(a), "/", (*levels)->name(d))});
  }
  return set;
}

forge::ArchiveLevels& FolderLevelSet::archive(std::size_t a) const {
  // Every archive was opened by open(): levels() hands back the one it holds.
  return **folder_.levels(a);
}

const std::string& FolderLevelSet::datafile_name(std::size_t i) const {
  const Member& m = members_.at(i);
  return archive(m.archive).name(m.datafile);
}

absl::StatusOr<const Level*> FolderLevelSet::level(std::size_t i) {
  const Member& m = members_.at(i);
  auto level = archive(m.archive).level(m.datafile);
  if (!level.ok())
    return absl::Status(level.status().code(), absl::StrCat(folder_.name(m.archive), ": ", level.status().message()));
  return level;
}

void FolderLevelSet::release(std::size_t i) {
  const Member& m = members_.at(i);
  archive(m.archive).release(m.datafile);
}

absl::StatusOr<std::span<const u8>> FolderLevelSet::bytes_of(std::size_t i) {
  const Member& m = members_.at(i);
  return archive(m.archive).bytes_of(m.datafile);
}

std::optional<std::size_t> FolderLevelSet::member(std::size_t archive, std::size_t datafile) const {
  if (archive >= first_.size()) return std::nullopt;
  const std::size_t i = first_[archive] + datafile;
  if (i >= members_.size() || members_[i].archive != archive) return std::nullopt;
  return i;
}

forge::ForgeVariant FolderLevelSet::variant(std::size_t i) const {
  return archive(members_.at(i).archive).archive().variant();
}

}  // namespace anvil::view
