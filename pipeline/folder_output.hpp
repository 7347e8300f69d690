// The output of `anvilrt patch DIR` (pipeline/folder_patch.hpp): each edited archive written by the
// archive's edit path (pipeline/archive_patch_output.hpp: only the edited data files re-compressed, read
// back and checked) straight into its temporary of a folder transaction (pipeline/folder_transaction.hpp),
// so that the folder's archives change together or not at all when the caller commits.
#pragma once

#include <absl/status/status.h>

#include <cstddef>
#include <functional>
#include <set>
#include <string>

#include "pipeline/folder_patch.hpp"
#include "pipeline/folder_transaction.hpp"

namespace anvil::folder {

// Stages in `txn`, under its file name, every archive `outcome` (without error) edits. With
// `copy_unchanged` (`patch DIR -o OUTDIR`: a new folder), every other archive of `folder` is staged too,
// copied byte for byte. Errors are one line naming the archive or the file written.
absl::Status stage_patched_folder(FolderLevels& folder, const FolderPatchOutcome& outcome, FolderTransaction& txn,
                                  bool copy_unchanged = false);

// What a caller learns of one staged archive before its stage is closed: the temporary it was written to
// (read back and checked; its path is `written.path()`), while its bytes are still written back to the
// disk, and the archive indices of the data files edited (a mod's undo data).
using StagedArchive = std::function<absl::Status(const InputFile& written, const std::set<std::size_t>& edited)>;

// Stages archive `patched.archive` of `folder` with its edits, under its file name in `txn`.
absl::Status stage_patched_archive(FolderLevels& folder, const ArchivePatch& patched, FolderTransaction& txn,
                                   const StagedArchive& staged = {});

// Stages the file `from` under `name` in `txn`, byte for byte.
absl::Status stage_copy(FolderTransaction& txn, const std::string& name, const std::string& from);

}  // namespace anvil::folder
