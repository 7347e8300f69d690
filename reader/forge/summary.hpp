// What `ls` shows of each data file of an archive: its entries in the tables, its sizes, compression
// and checksum rule, and optionally the objects carved from its bodies.
#pragma once

#include <absl/status/statusor.h>

#include <map>
#include <span>
#include <string>

#include "model/forge/archive.hpp"
#include "model/object.hpp"

namespace anvil::forge {

struct DataFileSummary {
  std::size_t index = 0;
  u32 file_id = 0;
  std::string name;
  u32 file_type = 0;
  u64 stored_size = 0;
  u64 decompressed_size = 0;
  Compression compression = Compression::plain;
  ChecksumRules rules = kAllRules;
  std::size_t checked_blocks = 0;      // blocks and chunks whose checksum was checked (1 without objects)
  std::map<std::string, u64> objects;  // with objects: per class name, carved from the bodies
  std::size_t entries = 0;             // with objects: entries of the data file
  std::string rule() const { return describe_rules(rules, checked_blocks); }
};

// Summarizes data file `index`. Without `objects`, from its tables alone (a skimming read: no block is
// copied) and its first checksummed block, whose rules stand for the data file's (`verify` checks every
// block); the rules over the stored bytes are tried first, and that block is decompressed only when none
// holds. With `objects`, the data file is decompressed, every block's checksum checked, and its bodies
// carved in `game`.
absl::StatusOr<DataFileSummary> summarize(std::span<const u8> bytes, const Archive& archive, std::size_t index,
                                          bool objects, Game game);

}  // namespace anvil::forge
