// The checksum rule of each archive a command reads (FORGE.md 2), voted by all its blocks before any of
// its data files is checked against it: by the first of its data files' jobs, on all the command's
// threads, while the archive's other jobs wait. verify and stats run one job per data file, in parallel.
#pragma once

#include <algorithm>
#include <cstddef>
#include <memory>
#include <mutex>
#include <span>
#include <vector>

#include "model/forge/archive.hpp"
#include "model/parallel.hpp"
#include "reader/forge/data_files.hpp"

namespace anvil::forge {

class ChecksumVotes {
 public:
  explicit ChecksumVotes(std::size_t inputs) : votes_(inputs), voted_(std::make_unique<std::once_flag[]>(inputs)) {}

  // The rule of input `input`, the archive `archive` of `bytes`: voted on the first call.
  const ArchiveChecksums& of(std::size_t input, std::span<const u8> bytes, const Archive& archive) {
    std::call_once(voted_[input],
                   [&] { votes_[input] = archive_checksums(bytes, archive, {}, std::min(thread_budget(), 1024u)); });
    return votes_[input];
  }
  // The rule once voted (of() returned): for the jobs' in-order reports.
  const ArchiveChecksums& voted(std::size_t input) const { return votes_[input]; }

 private:
  std::vector<ArchiveChecksums> votes_;
  std::unique_ptr<std::once_flag[]> voted_;
};

}  // namespace anvil::forge
