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
  std::size_t checked_blocks = 0;      // blocks and chunks that carry a checksum
  std::map<std::string, u64> objects;  // with objects: per class name, carved from the bodies
  std::size_t entries = 0;             // with objects: entries of the data file
  std::string rule() const { return describe_rules(rules, checked_blocks); }
};

// Summarizes data file `index`. The checksum rules over the stored bytes are found without
// decompressing; the data file is decompressed when none holds, or when `objects` asks for its objects
// (carved in `game`).
absl::StatusOr<DataFileSummary> summarize(std::span<const u8> bytes, const Archive& archive, std::size_t index,
                                          bool objects, Game game);

}  // namespace anvil::forge
