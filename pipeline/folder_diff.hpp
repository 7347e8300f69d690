// `anvilrt diff DIR_A DIR_B` (docs/game-folders.md): the archives of two game folders compared by file name,
// each pair as `anvilrt diff A.forge B.forge` compares them (patch/archive_diff.hpp). The patch's pointers are
// folder pointers (/archives/A.forge/datafiles/NAME/objects/...), so that `anvilrt patch DIR_A PATCH` gives
// DIR_A the objects of DIR_B's archives.
#pragma once

#include <absl/status/statusor.h>

#include <optional>
#include <string>
#include <vector>

#include "patch/archive_diff.hpp"

namespace anvil::folder {

struct ArchivePairDiff {
  std::string name;  // the archive's file name, in both folders
  patch::ArchiveDiff diff;
};

struct FolderDiff {
  std::vector<std::string> recovered;             // what opening either folder finished or rolled back
  std::vector<ArchivePairDiff> archives;          // in both folders, sorted by name
  std::vector<std::string> only_in_a, only_in_b;  // archives (a patch cannot carry them)

  bool identical() const;
  // Every archive's operations, in order, with folder pointers.
  std::vector<patch::DiffOp> ops() const;
};

// Errors: one line naming the folder, or the archive and data file that does not read.
absl::StatusOr<FolderDiff> diff_folders(const std::string& dir_a, const std::string& dir_b, std::optional<Game> game);

}  // namespace anvil::folder
