// The `anvilrt mod` commands' work (docs/mods.md): each writes into the game folder, if at all, as one
// folder transaction (pipeline/folder_transaction.hpp), so that the archives and DIR/.anvilrt/mods/ change
// together or not at all.
#pragma once

#include <absl/status/statusor.h>

#include <optional>
#include <string>
#include <vector>

#include "model/progress.hpp"
#include "pipeline/game_folder.hpp"
#include "pipeline/mods/mod_check.hpp"

namespace anvil::mods {

// What a writing command did or why it refused. A refusal (`refused`) is the user's to settle (failing
// operations, conflicts): exit 1 with the report; an error (the StatusOr) is bad input: exit 2.
struct WriteReport {
  std::vector<std::string> recovered;  // what opening the folder finished or rolled back first (one line)
  CheckReport check;                   // install: the analysis
  std::vector<std::string> notes;      // overrides, warnings, what was written
  bool refused = false;
  std::string refusal;
};

// `progress` hears the bytes of the archives written, of all those the mods change.
absl::StatusOr<WriteReport> install_mods(const std::string& dir, const std::vector<std::string>& mod_paths,
                                         const ModOptions& options, const ProgressFn& progress = {});
absl::StatusOr<WriteReport> uninstall_mods(const std::string& dir, const std::vector<std::string>& names);
absl::StatusOr<WriteReport> forget_archive(const std::string& dir, const std::string& archive);
// The installed mods with what each changed, and the archives changed behind anvilrt's back.
absl::StatusOr<CheckReport> list_mods(const std::string& dir);
// One mod whose install equals installing `mod_paths` in that order: their patches concatenated.
// Written atomically to `out`; its name is out's file name without the extension. With `onto` (a game
// folder: what a mod package is compared with), the mods are first checked on it: an operation that fails
// refuses the merge, and so does a conflict between them unless `allow_overrides` (each override named).
// A package that replaces bytes outside objects, or adds a data file (`allow_new`), is refused: a document
// carries no bytes.
struct MergeOptions {
  std::optional<std::string> onto;
  bool allow_overrides = false;
  bool allow_new = false;
};
absl::StatusOr<WriteReport> merge_mods(const std::vector<std::string>& mod_paths, const std::string& out,
                                       const MergeOptions& options = {});
// Opens DIR through the one door (folder::open_game_folder), which finishes or rolls back an interrupted
// transaction: the line saying which, empty when nothing was interrupted.
absl::StatusOr<std::string> recover(const std::string& dir);
// DIR opened for a change (its lock held), what the opening finished or rolled back noted in `report`:
// the first step of every command that writes into DIR.
absl::StatusOr<folder::GameFolder> open_for_change(const std::string& dir, WriteReport& report,
                                                   bool archives_required = true);

}  // namespace anvil::mods
