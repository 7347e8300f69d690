// `ls`: the archives a command line names (a game folder standing for the archives directly in it), and
// the data files of one archive summed up: its checksum rule voted over every stored byte, then each data
// file read (from its tables alone, or every block decompressed and its objects carved) in parallel on
// --jobs threads (model/parallel.hpp), reported in order. The command line opens and prints.
#pragma once

#include <absl/status/statusor.h>

#include <cstddef>
#include <functional>
#include <string>
#include <vector>

#include "model/forge/archive.hpp"
#include "model/object.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/forge/summary.hpp"
#include "reader/input_file.hpp"

namespace anvil::forge {

struct ArchivePaths {
  std::vector<std::string> paths;  // the archives, in the order named
  // One line each, for stderr: a folder that does not open (why), or what opening one finished or rolled
  // back of an interrupted change (pipeline/folder_transaction.hpp).
  std::vector<std::string> said;
  bool folders_failed = false;  // a folder did not open
};

// The paths as given, each folder replaced by the archives directly in it (pipeline/game_folder.hpp).
ArchivePaths archive_paths(const std::vector<std::string>& named);

struct ListOptions {
  bool objects = false;   // decompress every block and count the objects of each class
  Game game = Game::ac2;  // the dialect they are carved in
};

using ListedSummary = absl::StatusOr<DataFileSummary>;

// Sums up every data file of `archive`, calling `each` with each in index order (on one thread at a time),
// and returns the archive's checksum rule (Archive::checksums(), voted here unless voted before). Without
// `objects` a data file's pages are dropped once it is read: each is read once, and the archive is never
// mapped whole.
const ArchiveChecksums& list_data_files(const InputFile& input, const Archive& archive, const ListOptions& options,
                                        const std::function<void(std::size_t index, ListedSummary& summary)>& each);

}  // namespace anvil::forge
