#include "writer/forge/repack.hpp"

#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include <algorithm>
#include <limits>

#include "codec/forge_compression.hpp"
#include "model/forge/forge_error.hpp"
#include "writer/encode.hpp"
#include "writer/forge/new_blocks.hpp"

namespace anvil::forge {
namespace {

bool same(std::span<const u8> a, std::span<const u8> b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }

// The first position where `a` and `b` differ; min of their sizes when one is the other's start.
std::size_t first_difference(std::span<const u8> a, std::span<const u8> b) {
  const std::size_t n = std::min(a.size(), b.size());
  return static_cast<std::size_t>(
      std::mismatch(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n), b.begin()).first - a.begin());
}

// What one block set needs to be re-compressed: the archive's checksum rule, and the refusal when there
// is none.
struct SetContext {
  std::optional<ChecksumRule> rule;
  const ChecksumVerdict* checksums;

  absl::Status refuse() const {
    return absl::FailedPreconditionError(absl::StrCat("the archive's checksum rule is ", checksums->describe(),
                                                      checksums->blocks == 0 ? " (no block carries a checksum)" : "",
                                                      ", so a changed compressed block cannot be given a checksum"));
  }
};

// The blocks (chunks) holding each of `parts`, appended to `s`; refused without a checksum rule.
absl::Status append_new(BlockSet& s, const SetContext& c, std::span<const std::span<const u8>> parts) {
  if (!append_new_blocks(s, c.rule, parts)) return c.refuse();
  return absl::OkStatus();
}

// FORGE.md 4: a set of unchanged length re-split on its own boundaries; a changed block re-compressed.
absl::Status repack_in_place(BlockSet& s, std::span<const u8> before, std::span<const u8> after, const SetContext& c,
                             RepackReport& counts) {
  const bool blocks = s.max_size != 0;
  const std::size_t n = blocks ? s.blocks.size() : s.chunks.size();
  std::vector<std::size_t> changed;
  std::vector<std::span<const u8>> parts;
  std::size_t at = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const u64 size = blocks ? s.blocks[k].uncompressed_size : s.chunks[k].decoded_size();
    std::span<const u8> was = before.subspan(at, size), now = after.subspan(at, size);
    at += size;
    if (same(was, now)) continue;
    changed.push_back(k);
    parts.push_back(now);
  }
  counts.blocks += n;
  counts.recompressed += changed.size();
  // The changed ones are made in a set of their own, then put in their places.
  BlockSet made;
  made.max_size = s.max_size;
  made.compression = s.compression;
  if (auto status = append_new(made, c, parts); !status.ok()) return status;
  for (std::size_t k = 0; k < changed.size(); ++k) {
    if (blocks)
      s.blocks[changed[k]] = std::move(made.blocks[k]);
    else
      s.chunks[changed[k]] = std::move(made.chunks[k]);
  }
  return absl::OkStatus();
}

// FORGE.md 5: a set whose decompressed length changes. The blocks (chunks) before the one holding its
// first changed byte keep their stored bytes and checksums; the rest is cut into blocks of the set's
// largest uncompressed block size and re-compressed.
absl::Status repack_resized(BlockSet& s, std::span<const u8> before, std::span<const u8> after, const SetContext& c,
                            u64 fallback_size, RepackReport& counts) {
  const std::size_t changed = first_difference(before, after);
  const bool blocks = s.max_size != 0;
  const std::size_t n = blocks ? s.blocks.size() : s.chunks.size();
  u64 largest = 0;
  std::size_t kept = 0;
  u64 at = 0;
  for (std::size_t k = 0; k < n; ++k) {
    const u64 size = blocks ? s.blocks[k].uncompressed_size : s.chunks[k].decoded_size();
    largest = std::max(largest, size);
    if (kept == k && at + size <= changed && at + size <= after.size()) {
      kept = k + 1;
      at += size;
    }
  }
  // A set that held no block: the data file's largest block (its other set's), else its header's block size.
  if (largest == 0) largest = fallback_size;
  if (largest == 0) largest = s.block_size != 0 ? s.block_size : 0x8000;
  if (blocks) {
    s.blocks.resize(kept);
  } else {
    s.chunks.resize(kept);
  }
  const std::vector<std::span<const u8>> parts = cut_into(after.subspan(at), largest);
  if (blocks && kept + parts.size() > std::numeric_limits<u16>::max())
    return absl::InvalidArgumentError(
        absl::StrFormat("%d decompressed bytes in blocks of %d need more than the 65535 blocks a block set can count",
                        after.size(), largest));
  counts.blocks += kept + parts.size();
  counts.recompressed += parts.size();
  return append_new(s, c, parts);
}

// What a set decompresses to.
u64 decoded_length(const BlockSet& s) {
  u64 total = 0;
  for (const Block& b : s.blocks) total += b.uncompressed_size;
  for (const Chunk& c : s.chunks) total += c.decoded_size();
  return total;
}

u64 largest_block_size(const BlockSet& s) {
  u64 n = 0;
  for (const Block& b : s.blocks) n = std::max<u64>(n, b.uncompressed_size);
  for (const Chunk& c : s.chunks) n = std::max<u64>(n, c.decoded_size());
  return n;
}

}  // namespace

std::vector<u8> encode_stored(const StoredDataFile& stored) { return encoded(stored, stored.variant.code()); }

absl::StatusOr<StoredDataFile> repack(const StoredDataFile& original, std::span<const u8> old_decoded,
                                      std::span<const u8> new_decoded, const ChecksumVerdict& checksums,
                                      RepackReport* report) {
  return repack(StoredDataFile(original), old_decoded, new_decoded, checksums, report);
}

absl::StatusOr<StoredDataFile> repack(StoredDataFile&& original, std::span<const u8> old_decoded,
                                      std::span<const u8> new_decoded, const ChecksumVerdict& checksums,
                                      RepackReport* report) {
  StoredDataFile out = std::move(original);
  RepackReport counts;
  if (!out.compressed) {
    // A plain data file stays plain: its bytes must not hold the compression magic, which would read as
    // a block set out of place.
    const u8* magic = reinterpret_cast<const u8*>(&BlockSet::kMagic);
    auto it = std::search(new_decoded.begin(), new_decoded.end(), magic, magic + sizeof BlockSet::kMagic);
    if (it != new_decoded.end())
      return ForgeError{.offset = static_cast<u64>(it - new_decoded.begin()),
                        .offset_in = ForgeError::OffsetIn::data_file,
                        .reason = "the new bytes hold the compression magic, which a plain data file cannot hold",
                        .read_as = read_as(out.variant)}
          .status();
    out.plain.bytes.assign(new_decoded.begin(), new_decoded.end());
    // An empty data file (stored size 0) has no prefix; given bytes, it is written as a plain one.
    out.empty = new_decoded.empty() && out.empty;
    if (report) *report = counts;
    return out;
  }
  std::size_t at_old = 0, at_new = 0;
  const bool two = out.first && out.second;
  u64 largest = 0;
  for (const std::optional<BlockSet>* set : {&out.first, &out.second})
    if (set->has_value()) largest = std::max(largest, largest_block_size(**set));
  for (std::optional<BlockSet>* set : {&out.first, &out.second}) {
    if (!set->has_value()) continue;
    BlockSet& s = **set;
    const SetContext context{checksums.rule, &checksums};
    const u64 old_length = std::min<u64>(decoded_length(s), old_decoded.size() - at_old);
    // The first of two sets keeps its length (as many of the new bytes as it can); the last takes the rest.
    const bool last = !two || set == &out.second;
    const u64 new_length = last ? new_decoded.size() - at_new : std::min<u64>(old_length, new_decoded.size());
    std::span<const u8> before = old_decoded.subspan(at_old, old_length);
    std::span<const u8> after = new_decoded.subspan(at_new, new_length);
    at_old += old_length;
    at_new += new_length;
    absl::Status s_status = old_length == new_length ? repack_in_place(s, before, after, context, counts)
                                                     : repack_resized(s, before, after, context, largest, counts);
    if (!s_status.ok()) return s_status;
  }
  if (report) *report = counts;
  return out;
}

}  // namespace anvil::forge

namespace anvil::forge {

absl::StatusOr<StoredDataFile> pack_like(const StoredDataFile& like, std::span<const u8> decoded,
                                         const ChecksumVerdict& checksums, RepackReport* report) {
  if (!like.compressed || !checksums.rule) {
    StoredDataFile plain;
    plain.variant = like.variant;
    return repack(plain, {}, decoded, checksums, report);
  }
  StoredDataFile out;
  out.variant = like.variant;
  out.compressed = true;
  u64 size = 0;
  for (const std::optional<BlockSet>* set : {&like.first, &like.second})
    if (set->has_value()) size = std::max(size, largest_block_size(**set));
  if (size == 0) size = 0x8000;
  RepackReport counts;
  std::size_t at = 0;
  for (const std::optional<BlockSet>* set : {&like.first, &like.second}) {
    if (!set->has_value()) continue;
    BlockSet s = **set;
    s.blocks.clear();
    s.chunks.clear();
    const bool last = set == &like.second || !like.second;
    const std::size_t n = last ? decoded.size() - at : std::min<std::size_t>(size, decoded.size());
    const SetContext context{checksums.rule, &checksums};
    if (auto status = repack_resized(s, {}, decoded.subspan(at, n), context, size, counts); !status.ok()) return status;
    at += n;
    (set == &like.first ? out.first : out.second) = std::move(s);
  }
  if (report) *report = counts;
  return out;
}

}  // namespace anvil::forge
