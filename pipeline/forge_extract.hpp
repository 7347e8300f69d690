// `extract`: data files of an archive, decompressed, as files named after them in a folder.
#pragma once

#include <absl/status/statusor.h>

#include <span>
#include <string>
#include <vector>

#include "model/forge/archive.hpp"

namespace anvil::forge {

// The data files `selectors` name (find_data_files: a unique name, a file name, or "0x" + hex digits of
// a file_id), in archive order without repeats; all of them when there is no selector. A selector that
// names none is an error.
absl::StatusOr<std::vector<std::size_t>> select_data_files(const Archive& archive,
                                                           std::span<const std::string> selectors);

// The output names of the selected data files: "<file name>.data" (file_name_of their unique names).
std::vector<std::string> extract_names(const Archive& archive, std::span<const std::size_t> selected);

struct ExtractOptions {
  // Write every data file that reads; without it, one that does not read means nothing is written.
  bool keep_going = false;
  // Replace no existing file: one is an error before anything is written.
  bool no_clobber = false;
  // How errors name the archive (an output error names the output instead).
  std::string archive_path;
  // Also write `forge.json` (pipeline/forge_list.hpp), the list `pack` reads; complete: false when it
  // does not list every data file of the archive (selectors, or --keep-going with failures).
  bool write_list = true;
};

struct Extracted {
  std::size_t index = 0;
  std::string path;
  u64 size = 0;
};

struct ExtractOutcome {
  std::vector<Extracted> written;
  std::vector<std::string> failed;  // keep_going: each data file that does not read, one line naming it
  std::string list_path;            // forge.json, when written
};

// Writes each selected data file, decompressed, to `dir` (created if missing), all together: they are
// staged in a temporary folder inside `dir` and renamed into place at the end (platform/staged_folder.hpp),
// so that an error leaves `dir` as it was. Nothing inside `dir` is followed: a symbolic link at a file's
// name is replaced, a folder there refused. With keep_going, the data files that read are written and the
// others listed.
absl::StatusOr<ExtractOutcome> extract(std::span<const u8> bytes, const Archive& archive,
                                       std::span<const std::size_t> selected, const std::string& dir,
                                       const ExtractOptions& options = {});

}  // namespace anvil::forge
