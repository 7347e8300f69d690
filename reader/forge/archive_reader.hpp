// Reading a `.forge` archive's tables (FORGE.md 1): every offset, size and count checked against the
// file before it is used, each failure one error naming the archive offset.
#pragma once

#include <absl/status/statusor.h>

#include <optional>
#include <span>

#include "model/forge/archive.hpp"
#include "reader/input_file.hpp"

namespace anvil::forge {

// Reads the header, the file-data header at H, the chain of table sections and every data file's index
// entry, name entry and 440-byte header from `bytes` (the mapped archive; with `file`, the input it maps,
// those pieces are read with pread instead of through the mapping). Errors (InvalidArgument) are
// ForgeErrors (model/forge/forge_error.hpp) naming the archive offset and, once the header is read, the
// version the tables were read as: a bad magic, a version other than 25 (named), a table or data file outside
// the file, a count that cannot fit, a cycle of sections, two data files that overlap. `layout`, when
// given, is the data-file layout (a caller that read these bytes before, or wrote them in it); otherwise
// it is found by content (detect_layout(), which decompresses a data file).
absl::StatusOr<Archive> read_archive(std::span<const u8> bytes, const InputFile* file = nullptr,
                                     std::optional<u8> layout = {});

// The same tables without resolving the data-file layout (Archive::resolved() false: its variant has the
// version's likeliest), for a caller that finds it from the data files it reads itself
// (read_in_found_layout(), then resolve_layout()), or needs none (comparing stored bytes).
absl::StatusOr<Archive> read_archive_tables(std::span<const u8> bytes, const InputFile* file = nullptr);

}  // namespace anvil::forge
