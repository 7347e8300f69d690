// The `anvilrt mod` commands' work (docs/mods.md): each writes into the game folder, if at all, as one
// folder transaction (pipeline/folder_transaction.hpp), so that the archives and DIR/.anvilrt/mods/ change
// together or not at all.
#pragma once

#include <absl/status/statusor.h>

#include <optional>
#include <string>
#include <vector>

#include "model/progress.hpp"
#include "pipeline/mods/mod_check.hpp"

namespace anvil::mods {

// What a writing command did or why it refused. A refusal (`refused`) is the user's to settle (failing
// operations, conflicts): exit 1 with the report; an error (the StatusOr) is bad input: exit 2.
struct WriteReport {
  std::vector<std::string> recovered;  // what finishing an interrupted transaction did first
  CheckReport check;                   // install: the analysis
  std::vector<std::string> notes;      // overrides, warnings, what was written
  bool refused = false;
  std::string refusal;
};

// `progress` hears the bytes of the archives written, of all those the mods change.
absl::StatusOr<WriteReport> install_mods(const std::string& dir, const std::vector<std::string>& mod_paths,
                                         bool allow_overrides, const ProgressFn& progress = {});
absl::StatusOr<WriteReport> uninstall_mods(const std::string& dir, const std::vector<std::string>& names);
absl::StatusOr<WriteReport> forget_archive(const std::string& dir, const std::string& archive);
// The installed mods with what each changed, and the archives changed behind anvilrt's back.
absl::StatusOr<CheckReport> list_mods(const std::string& dir);
// One mod whose install equals installing `mod_paths` in that order: their patches concatenated.
// Written atomically to `out`; its name is out's file name without the extension. With `onto` (a game
// folder: what a mod package is compared with), the mods are first checked on it: an operation that fails
// refuses the merge, and so does a conflict between them unless `allow_overrides` (each override named).
struct MergeOptions {
  std::optional<std::string> onto;
  bool allow_overrides = false;
};
absl::StatusOr<WriteReport> merge_mods(const std::vector<std::string>& mod_paths, const std::string& out,
                                       const MergeOptions& options = {});
// Finishes or rolls back an interrupted transaction; one line per thing done.
absl::StatusOr<std::vector<std::string>> recover(const std::string& dir);

}  // namespace anvil::mods
