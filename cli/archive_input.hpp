// How every command opens its inputs: the file read (mapped, reader/input_file.hpp), what it holds found
// by its content (a level file, a decompressed data file or a `.forge` archive: reader/level_source.hpp),
// and an archive's tables read with the data files the command's selectors name. One way, so that a
// file reads, and fails, with the same one-line message ("FILE: reason") under every command.
#pragma once

#include <absl/status/status.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cli/common.hpp"
#include "model/forge/archive.hpp"

namespace anvil::cli {

struct ArchiveInput {
  forge::Archive archive;
  Game game = Game::ac2;
  // OpenOptions::detect_later: whether `game` is known yet (named by the user); whether the layout is:
  // archive.resolved().
  bool game_known = true;
  std::vector<std::size_t> selected;  // the data files named (all when none was)
};

// One path given to a command, opened.
struct OpenedInput {
  std::string path;
  bool sure = true;                // WalkedFile: named, or of a level-file extension
  std::optional<InputFile> input;  // nothing: the file could not be read (`open` says why)
  absl::Status open;
  Source source;
  std::optional<ArchiveInput> archive;  // an archive whose tables read
  std::vector<std::string> names;       // an archive's data files' names (forge::data_file_names)
  bool tables_failed = false;           // an archive whose tables (or selectors) do not read: said on stderr
  std::string failure;                  // why, without the path (empty when `--game` was refused)

  // Read, and, for an archive, its tables too.
  bool ok() const { return input && !tables_failed; }
};

// What opening says on stderr, besides errors.
struct OpenOptions {
  std::string game = "auto";                    // `--game`, for an archive (open_path)
  std::span<const std::string> selectors = {};  // an archive's data files (open_path)
  // With --verbose: say what the file holds (find_source), and the dialect `auto` picks in an archive.
  bool announce = false;
  bool archive_only = false;  // read the file as an archive whatever it holds (ls, extract): another kind fails
  // An archive's data-file layout and dialect, unless the user names them, are left to the command to find
  // from the data files it reads (diff, which may read none): finding them here decompresses one.
  bool detect_later = false;
};

// Opens one file. A failure to read it is kept in `open` for the caller to report in its order
// (PathErrors::failed); an archive whose tables do not read is said at once (open_path). A level file whose
// first bytes are the archive magic but for a bit or two is warned about (warn_damaged_magic).
OpenedInput open_path(const WalkedFile& file, const OpenOptions& options, const Common& common);

// Opens one file named on the command line, every failure reported at once (through `errors` when it does
// not read): nothing when it does not read or its tables do not.
std::optional<OpenedInput> open_one(const std::string& path, const OpenOptions& options, const Common& common,
                                    PathErrors& errors);

}  // namespace anvil::cli
