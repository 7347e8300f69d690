// Reading the changed data files of a comparison of two archives (patch/archive_diff.hpp): each decompressed,
// its blocks checked against the rule its own blocks vote, in its archive's resolved layout, or, while that is
// not resolved, in the layout found from the data file (tried as candidate variants; the archive is then
// resolved in it, forge::resolve_layout()).
#pragma once

#include <absl/status/statusor.h>

#include <array>
#include <cstddef>

#include "patch/archive_diff.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/level_source.hpp"

namespace anvil::patch {

// A data file of an archive decompressed, its blocks checked against the rule its own blocks vote (the
// rest of the archive is not read), and its bodies found.
struct Opened {
  forge::Decoded decoded;
  Source source;
  bool sizes_agree = false;  // forge::data_sizes_agree(): what tells the layout when it is found by content
};

// Data file `index` of `side`, in its layout, or, when that is not resolved yet, in the one its content reads
// in (forge::read_in_found_layout(): the archive is then resolved in it for the rest of the comparison).
absl::StatusOr<Opened> open_data_file(ArchiveSide& side, std::size_t index);

// A changed pair: A's data file i and B's j read together (forge::read_data_files_together: the blocks they
// share decompressed once, on two threads), in the layouts both sides are resolved in, or in the one both are
// found in when neither is resolved (both are then resolved). Otherwise, or when a side's layout cannot be
// told from that one read, each is read on its own (open_data_file), A's on a thread of its own.
std::array<absl::StatusOr<Opened>, 2> open_pair(ArchiveSide& a, std::size_t i, ArchiveSide& b, std::size_t j);

}  // namespace anvil::patch
