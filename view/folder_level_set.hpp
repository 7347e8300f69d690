// A game folder's archives (pipeline/game_folder.hpp) as one level set: every data file of every archive,
// archive by archive in the folder's order, each named "A.forge/NAME" (unique in the set; NAME is the
// data file's name in its archive). What `anvilrt map DIR` and `anvilrt serve DIR` read a folder as; a
// patch of it is the folder's (pipeline/folder_patch.hpp), applied to the folder these levels come from.
#pragma once

#include <absl/status/statusor.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "model/forge/variant.hpp"
#include "pipeline/game_folder.hpp"
#include "reader/level_set.hpp"

namespace anvil::view {

class FolderLevelSet final : public LevelSet {
 public:
  // Every archive of `folder` (which must outlive the set) opened: the error of the first that does not
  // read, one line naming it.
  static absl::StatusOr<std::unique_ptr<FolderLevelSet>> open(folder::FolderLevels& folder);

  Game game() const override { return game_; }  // the first archive's (each data file is carved in its own)
  std::size_t size() const override { return members_.size(); }
  const std::string& name(std::size_t i) const override { return members_.at(i).name; }
  absl::StatusOr<const Level*> level(std::size_t i) override;
  void release(std::size_t i) override;
  absl::StatusOr<std::span<const u8>> bytes_of(std::size_t i) override;

  folder::FolderLevels& folder() { return folder_; }
  // Member i's archive (an index into the folder's archives) and its index in that archive's set.
  std::size_t archive_of(std::size_t i) const { return members_.at(i).archive; }
  std::size_t index_in_archive(std::size_t i) const { return members_.at(i).datafile; }
  // Its data file's name in its archive (the NAME of /archives/A.forge/datafiles/NAME).
  const std::string& datafile_name(std::size_t i) const;
  // The member for data file `datafile` of archive `archive`.
  std::optional<std::size_t> member(std::size_t archive, std::size_t datafile) const;
  // The form (FORGE.md 7) member i's archive stores its data files in.
  forge::ForgeVariant variant(std::size_t i) const;

 private:
  struct Member {
    std::size_t archive = 0, datafile = 0;
    std::string name;
  };
  explicit FolderLevelSet(folder::FolderLevels& folder) : folder_(folder) {}
  forge::ArchiveLevels& archive(std::size_t a) const;

  folder::FolderLevels& folder_;
  Game game_ = Game::ac2;
  std::vector<Member> members_;
  std::vector<std::size_t> first_;  // per archive: its first member
};

}  // namespace anvil::view
