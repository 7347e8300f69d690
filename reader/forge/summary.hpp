// What `ls` shows of each data file of an archive: its entries in the tables, its sizes, compression
// and the archive's checksum rule its blocks are checked by, and optionally the objects carved from its
// bodies.
#pragma once

#include <absl/status/statusor.h>

#include <map>
#include <span>
#include <string>

#include "model/forge/archive.hpp"
#include "model/object.hpp"
#include "reader/forge/data_files.hpp"

namespace anvil::forge {

struct DataFileSummary {
  std::size_t index = 0;
  u64 file_id = 0;
  std::string name;
  u32 file_type = 0;
  u64 stored_size = 0;
  u64 decompressed_size = 0;
  Compression compression = Compression::plain;
  // "adler32-0/stored": the archive's rule, which every checksummed block of the data file matches;
  // "none" when the archive has no rule; "n/a" when the data file has no checksummed block.
  std::string rule;
  std::map<std::string, u64> objects;  // with objects: per class name, carved from the bodies
  std::size_t entries = 0;             // with objects: entries of the data file
  std::size_t checked_blocks = 0;      // blocks and chunks that carry a checksum
};

// Summarizes data file `index`, its blocks checked against the archive's rule (`checksums`, whose vote
// already checked each block: a damaged data file is the error decode() gives, naming the block).
// Without `objects`, from its tables alone (a skimming read: no block is copied or decompressed). With
// `objects`, the data file is decompressed and its bodies carved in `game`.
absl::StatusOr<DataFileSummary> summarize(std::span<const u8> bytes, const Archive& archive, std::size_t index,
                                          bool objects, Game game, const ArchiveChecksums& checksums);

// The two halves of summarize() without objects, so that `ls` can read a data file's tables in the pass
// that votes (archive_checksums_then), before the verdict is known: summarize_tables() reads the tables
// and skims the blocks (`rule` left empty); judged() gives the rule's name, or, for a data file the vote
// found damaged, the error decode() gives, naming the block.
absl::StatusOr<DataFileSummary> summarize_tables(std::span<const u8> bytes, const Archive& archive, std::size_t index);
absl::StatusOr<DataFileSummary> judged(DataFileSummary summary, std::span<const u8> bytes, const Archive& archive,
                                       const ArchiveChecksums& checksums);

}  // namespace anvil::forge
