// An archive's checksum rule (FORGE.md 2): the candidates a block's checksum may follow, one block's and
// the archive's votes, and the verdict the votes give (the rule every checksummed block is checked by).
#pragma once

#include <array>
#include <cstddef>
#include <iterator>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/primitives.hpp"

namespace anvil::forge {

// How a block's checksum is computed (FORGE.md 2): Adler-32 started at 0 or 1, over the stored
// (compressed) or the decompressed bytes. Which one an archive uses is not known in advance: the
// archive's blocks vote (ChecksumVote) and the verdict (judge) is its rule.
enum class ChecksumRule : u8 {
  adler32_0_stored = 1,
  adler32_1_stored = 2,
  adler32_0_decoded = 4,
  adler32_1_decoded = 8,
};
// A set of rules, as a bit mask of ChecksumRule: the candidates one block's checksum matches.
using ChecksumRules = u8;
inline constexpr ChecksumRules kAllRules = 15;
inline constexpr ChecksumRules kStoredRules = 3;  // the two candidates over the stored bytes
// The candidates in the order that breaks a tie.
inline constexpr ChecksumRule kChecksumRules[] = {ChecksumRule::adler32_0_stored, ChecksumRule::adler32_1_stored,
                                                  ChecksumRule::adler32_0_decoded, ChecksumRule::adler32_1_decoded};
inline constexpr std::size_t kCandidates = std::size(kChecksumRules);
std::string_view checksum_rule_name(ChecksumRule rule);
// The position of `rule` in kChecksumRules.
std::size_t candidate_index(ChecksumRule rule);

// How many checksummed blocks (blocks and chunks that carry a checksum) match each candidate. Votes of
// data files add up to the archive's, so they can be counted one data file at a time, in any order.
struct ChecksumVote {
  std::array<std::size_t, kCandidates> matched{};  // per candidate, in kChecksumRules order
  std::size_t blocks = 0;                          // checksummed blocks counted
  // Whether the candidates over the decompressed bytes were counted (a vote over the stored bytes alone
  // leaves them at 0).
  bool decoded = false;

  // One block, matching the candidates `rules`.
  void count(ChecksumRules rules);
  ChecksumVote& operator+=(const ChecksumVote& other);
  // Whether every block counted matches `rule`.
  bool all_match(ChecksumRule rule) const { return matched[candidate_index(rule)] == blocks; }
};

// The archive's checksum rule (FORGE.md 2): the candidate the most blocks match, provided it matches more
// than half of them; every block it does not match is damaged. Without one (`rule` empty and blocks > 0)
// the rule is "none": nothing is checked, and a compressed block cannot be given a checksum.
struct ChecksumVerdict {
  std::optional<ChecksumRule> rule;
  std::size_t matched = 0;           // blocks the rule matches; with no rule, the best candidate's
  std::optional<ChecksumRule> best;  // with no rule: the candidate `matched` counts (none when no block matched any)
  std::size_t blocks = 0;            // checksummed blocks of the archive

  // "adler32-0/stored (41 of 42 blocks)", "none (the best candidate, adler32-0/stored, matches 20 of 42
  // blocks)", "none (no candidate matches any of 42 blocks)", or "n/a" when no block carries a checksum.
  std::string describe() const;
  // The rule's name alone: "adler32-0/stored", "none" or "n/a".
  std::string name() const;
  // Whether a block whose checksum matches `rules` is damaged: never without a rule.
  bool damaged(ChecksumRules rules) const { return rule && (rules & static_cast<u8>(*rule)) == 0; }
  // Whether a vote over the stored bytes alone is final: it found a rule, or there was nothing to check.
  // Otherwise the blocks are decompressed and the rules over the decompressed bytes vote too (FORGE.md 2).
  bool settled() const { return blocks == 0 || rule.has_value(); }
};

// The verdict of a vote: among the candidates it counted (the two over the stored bytes unless
// vote.decoded), the one most blocks match, ties going to the first in kChecksumRules; a rule only when
// it matches more than half of vote.blocks.
ChecksumVerdict judge(const ChecksumVote& vote);

// The verdict of the archive and each data file's vote.
struct ArchiveChecksums {
  ChecksumVerdict verdict;
  std::vector<ChecksumVote> files;  // per data file (archive.files order), over the candidates judged

  // Whether data file `index` holds a block the rule does not match (never without a rule).
  bool damaged(std::size_t index) const {
    return verdict.rule && index < files.size() && !files[index].all_match(*verdict.rule);
  }
  std::string describe() const { return verdict.describe(); }
};

}  // namespace anvil::forge
