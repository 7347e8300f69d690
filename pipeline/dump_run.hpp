// `dump` of one input to standard output or, atomically, to a file (platform/replace_file.hpp): the
// document of a level file or a decompressed data file (pipeline/dump.hpp), or of an archive's data files,
// decompressed one at a time and each dropped when the next is asked for.
#pragma once

#include <absl/status/status.h>

#include <span>
#include <string>
#include <vector>

#include "model/forge/archive.hpp"
#include "model/progress.hpp"
#include "pipeline/dump.hpp"

namespace anvil {

struct DumpRequest {
  std::string input_path;  // names the input in the error of a data file that does not read
  std::span<const u8> bytes;
  const forge::Archive* archive = nullptr;  // an archive: its data files' document
  Game archive_game = Game::ac2;
  std::vector<std::size_t> selected;  // the archive's data files to dump (all when none)
  DumpOptions level;                  // a level file or a data file
  std::string out;                    // empty: standard output; `-` too
  ProgressFn progress;                // a level file's or data file's objects written
};

struct DumpRun {
  absl::Status status;      // not ok: its message is the one line to print, naming the output or the input
  std::size_t objects = 0;  // a level file's or data file's objects written
};

DumpRun dump_input(const DumpRequest& request);

}  // namespace anvil
