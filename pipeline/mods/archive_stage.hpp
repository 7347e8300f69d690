// Writing one archive of a game folder for a mod command: as `anvilrt patch DIR` writes it
// (folder::stage_patched_archive), and the undo data that write adds (undo_data.hpp).
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

}  // namespace anvil::mods
