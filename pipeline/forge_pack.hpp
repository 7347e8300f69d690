// `pack` and `compact` (FORGE.md 6): a new archive laid out from scratch (writer/forge/new_archive.hpp),
// from a folder that `extract` wrote (its data files compressed again as forge.json lists them), or from
// an archive whose stored bytes are kept and whose unreferenced bytes are dropped. Both are written to a
// temporary file, read back and checked, then renamed over the target: a failure leaves nothing.
#pragma once

#include <absl/status/statusor.h>

#include <optional>
#include <span>
#include <string>

#include "model/forge/archive.hpp"
#include "reader/input_file.hpp"
#include "platform/replace_file.hpp"

namespace anvil::forge {

struct PackReport {
  std::size_t datafiles = 0;
  u64 size = 0;
  std::string checksum_rule;  // the rule the blocks' checksums were given by
  bool rule_chosen = false;   // forge.json's rule was none or n/a: adler32-0/stored was chosen
};

// Builds an archive from `dir` (forge.json and the data files it lists, nothing else) into `target`.
// Errors are one line naming the file and the field: a list that is not complete (extract was given
// selectors), a listed file missing, a file the list does not name, a field out of range. A failure
// that is the output's names the target.
absl::StatusOr<PackReport> pack_folder(const std::string& dir, const std::string& target,
                                       const platform::OutputOptions& options = {});

struct CompactReport {
  std::size_t datafiles = 0;
  u64 before = 0;
  u64 after = 0;
  u64 alignment = 1;
};

// The archive `bytes` (mapped from `input`, whose path names it in errors) rewritten into `target` with
// no unreferenced bytes: the header, file-data header and table sections (their kept fields and counts),
// then each data file in table order, its 440-byte header and stored bytes as they are, at the next
// offset aligned to `alignment` (none: the archive's own, data_file_alignment()). Read back and checked:
// the same tables but offsets, the same stored bytes, and no unreferenced byte but alignment padding.
absl::StatusOr<CompactReport> compact_file(const InputFile& input, const std::string& target,
                                           const platform::OutputOptions& options = {},
                                           std::optional<u64> alignment = std::nullopt);

}  // namespace anvil::forge
