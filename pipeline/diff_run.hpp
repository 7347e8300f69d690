// `diff` of two inputs as the command opened them: two .forge archives (patch/archive_diff.hpp, their
// layout and dialect found from the data files that differ), two decompressed data files or level files
// (one of each too), or two game folders (pipeline/folder_diff.hpp). Whether the two are of kinds that
// compare, the dialect `auto` picks, and what is compared are decided here; the command line opens the
// inputs and prints the patch or the JSON document (docs/diff.md), and a line per data file that differs.
#pragma once

#include <absl/status/status.h>
#include <absl/status/statusor.h>

#include <optional>
#include <string>
#include <vector>

#include "model/forge/archive.hpp"
#include "patch/archive_diff.hpp"
#include "patch/diff.hpp"
#include "pipeline/folder_diff.hpp"
#include "reader/input_file.hpp"
#include "reader/level.hpp"
#include "reader/level_source.hpp"

namespace anvil {

// One side of a comparison, as the command opened it.
struct DiffSide {
  std::string path;
  const InputFile* file = nullptr;  // read: it outlives the comparison
  Source source;
  // An archive whose tables read; its layout, when not resolved yet, is resolved in it as it is compared.
  forge::Archive* archive = nullptr;
  std::optional<Game> archive_game;  // the archive's dialect, when named or already found
};

struct DiffRequest {
  DiffSide a, b;
  std::optional<Game> game;  // --game; nothing: auto, from A
  bool json = false;         // the whole comparison (docs/diff.md), not only the patch
};

struct DiffRun {
  // Not ok: the one line to print. FailedPrecondition: two level files that do not carve into the same
  // objects with the same opaque bytes (exit 1); anything else is bad input (exit 2).
  absl::Status status;
  std::optional<Detection> detection;  // A a level file under `auto`: how its dialect was picked
  std::optional<Game> detected;        // A a data file under `auto`: the dialect picked in its bodies
  // Two level files compared for the patch alone: the one that carves nothing (each to be warned about).
  bool a_no_objects = false, b_no_objects = false;
  std::string kind;                // "archives", "level files" or "data files" (docs/diff.md)
  patch::ArchiveDiff diff;         // every data file compared (one for two files); none for two level files' patch
  std::vector<patch::DiffOp> ops;  // the patch that turns A into B
  bool differs = false;            // exit 1
};

// Compares A and B; `request`'s archives may have their layout resolved.
DiffRun diff_inputs(const DiffRequest& request);

// Two paths of which one at least is a folder: both must be game folders, and --json is refused (a folder
// comparison is only a patch). Errors are one line.
absl::StatusOr<folder::FolderDiff> diff_game_folders(const std::string& a_path, const std::string& b_path,
                                                     std::optional<Game> game, bool json);

}  // namespace anvil
