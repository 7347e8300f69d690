// `anvilrt put` (FORGE.md 6): data files given as files replace the archive's data files of their names,
// new ones are appended, others removed; the archive is written by the edit path (pipeline/forge_rewrite.hpp:
// blocks cut from the first byte that differs, FORGE.md 4 and 5), read back and checked, then renamed.
// A file equal to what the archive holds changes nothing.
#pragma once

#include <absl/status/statusor.h>

#include <optional>
#include <string>
#include <vector>

#include "reader/input_file.hpp"
#include "platform/replace_file.hpp"

namespace anvil::forge {

struct PutRequest {
  // Files named NAME.data (as `extract` writes them): each replaces the data file NAME names (its unique
  // name or its file name, model/forge/archive.hpp find_data_files()).
  std::vector<std::string> files;
  // For one file named otherwise: the data file it replaces (NAME or 0xID naming exactly one).
  std::optional<std::string> as;
  // Take every file as decompressed bytes, without reading an entry table in it.
  bool raw = false;
  struct Add {
    std::string path;
    std::optional<std::string> name;  // default: its first entry's name, else the file's name without .data
    std::optional<u64> file_id;       // default: its first entry's file_id
    std::optional<u32> file_type;     // default: its first entry's resource_type
  };
  std::vector<Add> added;
  std::vector<std::string> removed;  // NAME or 0xID: every data file it names
};

struct PutOutcome {
  // One line per data file named: "NAME: unchanged", "NAME: replaced (…)", "NAME: added (…)",
  // "NAME: removed (…)".
  std::vector<std::string> lines;
  bool changed = false;  // whether any data file changes (else the archive is written as it is)
};

// Puts the request into the archive `input` (read from `archive_path`) and writes the result to `target`
// (atomically, read back and checked first); with no target, a dry run: the same outcome, nothing written.
// With `in_place` and nothing changed, the archive is left as it is. Errors are one line naming the file,
// the data file or the option at fault; nothing is written then.
absl::StatusOr<PutOutcome> put(const InputFile& input, const PutRequest& request,
                               const std::optional<std::string>& target, const platform::OutputOptions& options = {});

}  // namespace anvil::forge
