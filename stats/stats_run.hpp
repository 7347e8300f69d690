// `stats` over many inputs: each level file and decompressed data file one job, each data file of an
// archive one (its blocks checked against the archive's checksum rule, voted first), carved in parallel on
// --jobs threads (model/parallel.hpp) and their censuses merged in the inputs' order, each archive summed
// up too. The command line opens the inputs and prints the census.
#pragma once

#include <cstddef>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/forge/archive.hpp"
#include "pipeline/input_view.hpp"
#include "reader/level.hpp"
#include "reader/level_source.hpp"
#include "stats/census.hpp"

namespace anvil::stats {

// One input, as the command opened it, and its data files' names when it is an archive.
struct StatsInput : InputView {
  const std::vector<std::string>* names = nullptr;  // forge::data_file_names
};

struct StatsRunOptions {
  std::optional<Game> game;  // --game; nothing: auto, per file
  // Hears the bytes carved since its last call, and the whole of the inputs', on the jobs' threads.
  std::function<void(std::size_t bytes, std::size_t total)> progress;
};

// What one job reports, in the inputs' order, for the command to say on stderr.
struct StatsStep {
  std::size_t input = 0;
  bool read = true;                    // false: the file was not read, nothing else here
  bool no_objects = false;             // a `sure` file that carves nothing
  std::optional<Detection> detection;  // a level file under `auto`: how its dialect was picked
  std::optional<Game> detected;        // a data file under `auto`: the dialect picked in its bodies
  std::string damaged;                 // a data file with a damaged block (FORGE.md 2): why, one line
};

struct StatsRun {
  Census census;
  std::vector<std::string> labels;   // the census' files: a path, or "ARCHIVE:NAME" for a data file
  std::vector<std::string> skipped;  // files not `sure` that carve nothing: not counted
  bool unreadable = false;           // an archive whose tables do not read
  bool damaged = false;              // a data file with a damaged block
};

// Takes the census of every input, calling `report` with each job in order (on one thread at a time).
StatsRun census_of_inputs(std::span<const StatsInput> inputs, const StatsRunOptions& options,
                          const std::function<void(const StatsStep&)>& report);

}  // namespace anvil::stats
