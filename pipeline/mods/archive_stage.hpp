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

// What a mod command says of an archive it wrote: "levels.forge: 2 data files changed, 1 added, 4,096 bytes of
// undo data".
std::string archive_written_line(const std::string& name, const folder::ArchivePatch& patched, const ArchiveUndo& undo);

}  // namespace anvil::mods
