// `verify` over many inputs: each level file and decompressed data file one job, each archive one job for
// its tables and one per data file, all in parallel (model/parallel.hpp, --jobs threads) and reported in
// the inputs' order, each archive summed up after its last data file. The command line opens the inputs
// and prints what each step reports.
#pragma once

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/forge/archive.hpp"
#include "pipeline/archive_verify.hpp"
#include "pipeline/input_view.hpp"
#include "pipeline/verify.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/level.hpp"
#include "reader/level_source.hpp"

namespace anvil {

// One input, as the command opened it.
using VerifyInput = InputView;

struct VerifyRunOptions {
  std::optional<Game> game;  // --game; nothing: auto, per file
  bool json = true;          // the objects' JSON round trip too
  bool recompress = false;   // archives: re-compress every compressed block
  // Hears the bytes verified since its last call, and the whole of the inputs', on the jobs' threads.
  std::function<void(std::size_t bytes, std::size_t total)> progress;
};

// An archive summed over its data files, when its last one has been reported.
struct ArchiveVerifyTally {
  std::size_t datafiles = 0, identical = 0, unreadable = 0;
  std::map<forge::Compression, forge::Recompressed> recompressed;
  bool tables_identical = true;
  forge::ChecksumVerdict verdict;  // the archive's checksum rule
};

// What one step verified, reported in the inputs' order.
struct VerifyStep {
  enum class Kind { not_read, tables_failed, level_file, data_file, archive_tables, archive_data_file };
  Kind kind = Kind::not_read;
  std::size_t input = 0;               // index in the inputs
  std::size_t datafile = 0;            // archive_data_file: its index in the archive
  Game game = Game::ac2;               // level_file, data_file: the dialect read
  std::optional<Detection> detection;  // level_file under `auto`: how the dialect was picked
  bool game_detected = false;          // data_file under `auto`: picked in its bodies
  bool skipped = false;                // a file not `sure` that carves nothing: not counted, and nothing else here
  bool no_objects = false;             // a `sure` file that carves nothing: counted, to be warned about
  VerifyReport report;                 // level_file
  forge::DataFileVerify verified;      // data_file, archive_data_file
  forge::TablesVerify tables;          // archive_tables
  const ArchiveVerifyTally* finished = nullptr;  // the archive's last step: its summary
};

struct VerifyTotals {
  std::size_t identical = 0, different = 0, unreadable = 0;  // files (an archive is one)
  std::vector<std::string> skipped;                          // paths of the steps `skipped`
};

// Verifies every input, calling `report` with each step in order (on one thread at a time).
VerifyTotals verify_inputs(std::span<const VerifyInput> inputs, const VerifyRunOptions& options,
                           const std::function<void(const VerifyStep&)>& report);

}  // namespace anvil
