// Writing one archive of a game folder for a mod command: its data files edited by a folder patch,
// written into the stream a folder transaction stages it in (pipeline/folder_transaction.hpp) as
// `anvilrt patch` writes an archive (the kernel copies the untouched bytes, the edited data files are
// placed and the result read back and checked), and the undo data it adds (undo_data.hpp).
#pragma once

#include <absl/status/status.h>

#include <cstdio>
#include <string>

#include "patch/archive_patch.hpp"
#include "pipeline/mods/folder_apply.hpp"
#include "pipeline/mods/undo_data.hpp"

namespace anvil::mods {

// Writes `archive` with `outcome`'s edits into `file` (the temporary `temp_path`), reads it back, and
// adds to `undo` where it differs from `archive` (whose bytes outside undo's ranges are the original's).
absl::Status write_edited(FolderArchive& archive, const patch::ArchivePatchOutcome& outcome, std::FILE* file,
                          const std::string& temp_path, ArchiveUndo& undo);

// Copies the file `from` into `file`.
absl::Status copy_into(const std::string& from, std::FILE* file, const std::string& temp_path);

}  // namespace anvil::mods
