// `anvilrt patch DIR PATCH` as one library call (cli/cmd_patch.cpp parses and prints): the folder opened
// through its door (pipeline/game_folder.hpp: locked and recovered), the patch applied to its archives
// (pipeline/folder_patch.hpp), and the edited archives written as one transaction
// (pipeline/folder_transaction.hpp) -- in DIR itself, or into a new folder OUTDIR holding every archive
// (the unchanged ones copied), made under a name of its own beside OUTDIR and put at OUTDIR's name in one
// rename (platform/folder_at_name.hpp): a link put at that name is never written through.
#pragma once

#include <absl/status/status.h>

#include <string>
#include <string_view>
#include <vector>

#include "pipeline/folder_patch.hpp"

namespace anvil::folder {

struct FolderPatchRequest {
  std::string dir;
  std::string out_dir;   // empty: DIR in place
  bool dry_run = false;  // nothing written; the changes recorded
  FolderOptions options;
  std::string intent;  // the command, for the journal ("patch mod.json")
};

struct FolderPatchRun {
  std::vector<std::string> recovered;  // what opening DIR finished or rolled back first (one line)
  std::vector<std::string> archives;   // DIR's archives
  FolderPatchOutcome outcome;          // its error: the patch's (exit code in it)
  absl::Status status;                 // not ok: the folder, an archive or the output failed (one line)
};

FolderPatchRun patch_folder(const FolderPatchRequest& request, std::string_view patch_json);

}  // namespace anvil::folder
