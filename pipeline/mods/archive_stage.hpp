// Writing one archive of a game folder for a mod command: its data files edited by a folder patch
// (pipeline/folder_patch.hpp), written into the temporary a folder transaction stages it in
// (pipeline/folder_transaction.hpp) as `anvilrt patch DIR` writes an archive (forge::rewrite_into: the
// kernel copies the untouched bytes, the edited data files are placed, the result read back and checked),
// and the undo data that write adds (undo_data.hpp).
#pragma once

#include <absl/status/status.h>

#include <cstdio>
#include <string>

#include "pipeline/folder_patch.hpp"
#include "pipeline/folder_transaction.hpp"
#include "pipeline/mods/mod_state.hpp"
#include "pipeline/mods/undo_data.hpp"

namespace anvil::mods {

// Stages archive `patched.archive` of `folder` with its edits under its file name in `txn`, adds to
// `undo` where the written archive differs from the one read (whose bytes outside undo's ranges are the
// original's), stages the undo data, and sets the record's stamp to the staged file's.
absl::Status stage_archive(folder::FolderTransaction& txn, folder::FolderLevels& folder,
                           const folder::ArchivePatch& patched, ArchiveUndo& undo, ArchiveRecord& record);

// Stages the file `from` under `name` in `txn`, byte for byte.
absl::Status stage_copy(folder::FolderTransaction& txn, const std::string& name, const std::string& from);

}  // namespace anvil::mods
