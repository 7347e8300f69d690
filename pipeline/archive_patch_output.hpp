// The output of `anvilrt patch FORGE` (patch/archive_patch.hpp, FORGE.md 4): each edited data file's
// decompressed bytes with its objects' new encodings overlaid, proven to carve (in its bodies) into the
// patched objects with every other byte unchanged, then handed to the archive's edit path, which
// re-compresses the changed blocks, places the data file, writes a temporary beside the target, reads it
// back, checks it and renames it. A failure at any step leaves the target as it was.
#pragma once

#include <absl/status/statusor.h>

#include <span>
#include <string>
#include <vector>

#include "patch/archive_patch.hpp"
#include "pipeline/forge_rewrite.hpp"
#include "reader/forge/archive_levels.hpp"

namespace anvil::forge {

// The changes of an outcome without error: one per edited data file, in archive order.
absl::StatusOr<std::vector<DataFileChange>> patched_data_files(ArchiveLevels& set,
                                                               const patch::ArchivePatchOutcome& outcome);

// patched_data_files, then rewrite_file to `target` (`input`: the mapped file `bytes` views, if any).
absl::StatusOr<std::vector<ChangeReport>> write_patched_archive(std::span<const u8> bytes, ArchiveLevels& set,
                                                                const patch::ArchivePatchOutcome& outcome,
                                                                const std::string& target,
                                                                const platform::OutputOptions& options = {},
                                                                const InputFile* input = nullptr);

}  // namespace anvil::forge
