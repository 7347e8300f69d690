// The archive's checksum rule (FORGE.md 2): every checksummed block votes for the candidates it matches.
#include <functional>
#include <optional>

#include "codec/checksums.hpp"
#include "codec/forge_compression.hpp"
#include "codec/lzo.hpp"
#include "model/parallel.hpp"
#include "reader/forge/data_files.hpp"

namespace anvil::forge {

ChecksumRules rules_matching(u32 checksum, std::span<const u8> stored, std::span<const u8> decoded) {
  ChecksumRules rules = 0;
  auto match = [&](std::span<const u8> bytes, ChecksumRule from_0, ChecksumRule from_1) {
    const u32 zero = codec::adler32(0, bytes);  // one pass for both starts
    if (zero == checksum) rules |= static_cast<u8>(from_0);
    if (codec::adler32_started_at_1(zero, bytes.size()) == checksum) rules |= static_cast<u8>(from_1);
  };
  match(stored, ChecksumRule::adler32_0_stored, ChecksumRule::adler32_1_stored);
  match(decoded, ChecksumRule::adler32_0_decoded, ChecksumRule::adler32_1_decoded);
  return rules;
}

namespace {

// The skimmed blocks of a compressed data file, or nothing (plain, or its stored form does not read).
std::optional<std::vector<SkimmedBlock>> skim(std::span<const u8> bytes, const Archive& archive, ForgeVariant as,
                                              std::size_t index) {
  const DataFileAt& f = archive.files[index];
  // A plain data file has no checksum: not read (its bytes are not copied into a model).
  if (!starts_compressed(bytes.subspan(f.stored_offset(), f.index.size), as)) return std::nullopt;
  std::vector<std::span<const u8>> runs;  // the blocks are viewed in the archive, not copied
  auto stored = read_stored(bytes, archive, as, index, &runs);
  if (!stored.ok() || !stored->compressed) return std::nullopt;
  return skimmed_blocks(*stored, runs);
}

}  // namespace

ChecksumVote vote_stored(std::span<const u8> bytes, const Archive& archive, ForgeVariant as, std::size_t index) {
  ChecksumVote vote;
  auto blocks = skim(bytes, archive, as, index);
  if (!blocks) return vote;
  for (const SkimmedBlock& b : *blocks)
    if (b.checksum) vote.count(rules_matching(*b.checksum, b.stored, {}) & kStoredRules);
  return vote;
}

ChecksumVote vote_decoded(std::span<const u8> bytes, const Archive& archive, ForgeVariant as, std::size_t index) {
  ChecksumVote vote;
  vote.decoded = true;
  auto blocks = skim(bytes, archive, as, index);
  if (!blocks) return vote;
  std::vector<u8> scratch;
  for (const SkimmedBlock& b : *blocks) {
    if (!b.checksum) continue;
    if (b.plain) {
      vote.count(rules_matching(*b.checksum, b.stored, b.stored));
      continue;
    }
    bool decoded = b.decoded_size <= codec::max_decompressed_size(b.stored.size());
    if (decoded) {
      scratch.resize(b.decoded_size);
      decoded = codec::decompress_into(codec::algorithm_of(b.compression), b.stored, scratch).ok();
    }
    ChecksumRules rules =
        rules_matching(*b.checksum, b.stored, decoded ? std::span<const u8>(scratch) : std::span<const u8>());
    if (!decoded) rules &= kStoredRules;  // nothing decompressed, nothing matched over it
    vote.count(rules);
  }
  return vote;
}

ChecksumVerdict own_checksum_rule(std::span<const u8> bytes, const Archive& archive, ForgeVariant as,
                                  std::size_t index) {
  ChecksumVerdict verdict = judge(vote_stored(bytes, archive, as, index));
  if (!verdict.settled()) verdict = judge(vote_decoded(bytes, archive, as, index));
  return verdict;
}

ArchiveChecksums archive_checksums_then(std::span<const u8> bytes, const Archive& archive,
                                        const std::function<void(std::size_t index)>& voted, unsigned threads) {
  ArchiveChecksums out;
  auto take = [&](auto vote_of) {
    out.files.assign(archive.files.size(), ChecksumVote{});
    // Each data file votes into its own slot, so the workers share nothing but the next index.
    for_each_index(archive.files.size(), threads, [&](std::size_t i) {
      out.files[i] = vote_of(bytes, archive, archive.variant(), i);
      if (voted) voted(i);
    });
    ChecksumVote total;
    for (const ChecksumVote& vote : out.files) total += vote;
    out.verdict = judge(total);
  };
  using Vote = ChecksumVote (*)(std::span<const u8>, const Archive&, ForgeVariant, std::size_t);
  take(static_cast<Vote>(vote_stored));
  if (out.verdict.settled()) return out;
  take(static_cast<Vote>(vote_decoded));
  return out;
}

ArchiveChecksums archive_checksums(std::span<const u8> bytes, const Archive& archive,
                                   const std::function<void(u64 offset, u64 size)>& done, unsigned threads) {
  if (!done) return archive_checksums_then(bytes, archive, {}, threads);
  return archive_checksums_then(
      bytes, archive, [&](std::size_t i) { done(archive.files[i].stored_offset(), archive.files[i].index.size); },
      threads);
}

}  // namespace anvil::forge
