// `extract`: data files of an archive, decompressed, as files named after them in a folder.
#pragma once

#include <absl/status/statusor.h>

#include <span>
#include <string>
#include <vector>

#include "model/forge/archive.hpp"

namespace anvil::forge {

// The data files `selectors` name (each a data file name, or "0x" + hex digits of a file_id), in archive
// order without repeats; all of them when there is no selector. A selector that names none is an error.
absl::StatusOr<std::vector<std::size_t>> select_data_files(const Archive& archive,
                                                           std::span<const std::string> selectors);

// A file name for a data file name that any file system takes: characters other than letters, digits,
// '.', '-' and '_' become '_', no leading '.', at most 200 characters, names Windows reserves suffixed
// with '_', and "datafile" for an empty name.
std::string safe_file_name(std::string_view name);

// The output names of the selected data files: "<safe name>.data", and "<safe name>-0x<id>.data" (then
// "-<index>") for a name that clashes with another's when case is ignored.
std::vector<std::string> extract_names(const Archive& archive, std::span<const std::size_t> selected);

struct Extracted {
  std::size_t index = 0;
  std::string path;
  u64 size = 0;
};

// Writes each selected data file, decompressed, to `dir` (created if missing), atomically. Stops at the
// first data file that does not read, after the ones before it are written.
absl::StatusOr<std::vector<Extracted>> extract(std::span<const u8> bytes, const Archive& archive,
                                               std::span<const std::size_t> selected, const std::string& dir);

}  // namespace anvil::forge
