// Which bytes of a `.forge` archive its tables reference (FORGE.md 1): the header up to H, the file-data
// header, each table section with its index and name tables, and each data file's 440-byte header and
// stored bytes. The rest is unreferenced: padding, and what moves and removals leave behind; `compact`
// drops it, and its check uses these ranges.
#pragma once

#include <absl/status/status.h>

#include <vector>

#include "model/forge/archive.hpp"

namespace anvil::forge {

struct ByteRange {
  u64 begin = 0;
  u64 end = 0;
  bool operator==(const ByteRange&) const = default;
};

// The referenced ranges, sorted and merged (ranges that touch or overlap are one).
std::vector<ByteRange> referenced_ranges(const Archive& archive);

// The bytes of [0, archive.size) outside them, in order.
std::vector<ByteRange> unreferenced_ranges(const Archive& archive);

// Whether every unreferenced byte is padding that the alignment requires: each unreferenced range ends at
// a data file's 440-byte header, at an offset that is a multiple of `alignment`, and is shorter than
// `alignment` (none at all with an alignment of 1). The error names the first range that is not.
absl::Status check_no_unreferenced(const Archive& archive, u64 alignment);

}  // namespace anvil::forge
