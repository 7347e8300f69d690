#include "writer/forge/repack.hpp"

#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include <algorithm>
#include <limits>

#include "codec/forge_compression.hpp"
#include "codec/lzo.hpp"
#include "writer/byte_writer.hpp"

namespace anvil::forge {
namespace {

bool same(std::span<const u8> a, std::span<const u8> b) { return std::equal(a.begin(), a.end(), b.begin(), b.end()); }

// The first position where `a` and `b` differ; min of their sizes when one is the other's start.
std::size_t first_difference(std::span<const u8> a, std::span<const u8> b) {
  const std::size_t n = std::min(a.size(), b.size());
  return static_cast<std::size_t>(
      std::mismatch(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(n), b.begin()).first - a.begin());
}

// What one block set needs to be re-compressed: its algorithm, the archive's checksum rule, and the
// refusal when there is none.
struct SetContext {
  codec::Algorithm algorithm;
  std::optional<ChecksumRule> rule;
  const ChecksumVerdict* checksums;

  absl::Status refuse() const {
    return absl::FailedPreconditionError(absl::StrCat("the archive's checksum rule is ", checksums->describe(),
                                                      checksums->blocks == 0 ? " (no block carries a checksum)" : "",
                                                      ", so a changed compressed block cannot be given a checksum"));
  }
};

// A block holding `bytes`, re-compressed (stored plain when that is not smaller), checksummed by the rule.
absl::StatusOr<Block> new_block(const SetContext& c, std::span<const u8> bytes) {
  if (!c.rule) return c.refuse();
  Block block;
  block.uncompressed_size = static_cast<u16>(bytes.size());
  std::vector<u8> packed = codec::compress(c.algorithm, bytes);
  if (packed.size() >= bytes.size()) packed.assign(bytes.begin(), bytes.end());  // stored plain
  block.stored.bytes = std::move(packed);
  block.checksum = codec::checksum_by(*c.rule, block.stored.bytes, bytes);
  return block;
}

// A chunk holding `bytes`: compressed (01) when that is smaller; plain (00) otherwise, unless its size
// does not fit a plain chunk's u16, when it stays compressed even so.
absl::StatusOr<Chunk> new_chunk(const SetContext& c, std::span<const u8> bytes) {
  Chunk chunk;
  std::vector<u8> packed = codec::compress(c.algorithm, bytes);
  if (packed.size() >= bytes.size() && bytes.size() <= std::numeric_limits<u16>::max()) {
    chunk.kind = Chunk::kPlain;
    chunk.stored.bytes.assign(bytes.begin(), bytes.end());
    return chunk;
  }
  if (!c.rule) return c.refuse();
  chunk.kind = Chunk::kCompressed;
  chunk.uncompressed_size = static_cast<u32>(bytes.size());
  chunk.stored.bytes = std::move(packed);
  chunk.checksum = codec::checksum_by(*c.rule, chunk.stored.bytes, bytes);
  return chunk;
}

// FORGE.md 4: a set of unchanged length re-split on its own boundaries; a changed block re-compressed.
absl::Status repack_in_place(BlockSet& s, std::span<const u8> before, std::span<const u8> after, const SetContext& c,
                             RepackReport& counts) {
  std::size_t at = 0;
  if (s.max_size != 0) {
    for (Block& block : s.blocks) {
      ++counts.blocks;
      std::span<const u8> was = before.subspan(at, block.uncompressed_size);
      std::span<const u8> now = after.subspan(at, block.uncompressed_size);
      at += block.uncompressed_size;
      if (same(was, now)) continue;
      ++counts.recompressed;
      auto made = new_block(c, now);
      if (!made.ok()) return made.status();
      block = std::move(*made);
    }
    return absl::OkStatus();
  }
  for (Chunk& chunk : s.chunks) {
    ++counts.blocks;
    const u64 size = chunk.decoded_size();
    std::span<const u8> was = before.subspan(at, size);
    std::span<const u8> now = after.subspan(at, size);
    at += size;
    if (same(was, now)) continue;
    ++counts.recompressed;
    auto made = new_chunk(c, now);
    if (!made.ok()) return made.status();
    chunk = std::move(*made);
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
  counts.blocks += kept;
  for (u64 from = at; from < after.size(); from += largest) {
    std::span<const u8> part = after.subspan(from, std::min<u64>(largest, after.size() - from));
    ++counts.blocks;
    ++counts.recompressed;
    if (blocks) {
      if (s.blocks.size() == std::numeric_limits<u16>::max())
        return absl::InvalidArgumentError(absl::StrFormat(
            "%d decompressed bytes in blocks of %d need more than the 65535 blocks a block set can count", after.size(),
            largest));
      auto made = new_block(c, part);
      if (!made.ok()) return made.status();
      s.blocks.push_back(std::move(*made));
    } else {
      auto made = new_chunk(c, part);
      if (!made.ok()) return made.status();
      s.chunks.push_back(std::move(*made));
    }
  }
  return absl::OkStatus();
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

std::vector<u8> encode_stored(const StoredDataFile& stored) {
  std::vector<u8> out;
  {
    ByteWriter writer(out);
    const_cast<StoredDataFile&>(stored).serialize(writer, 0);
  }
  return out;
}

absl::StatusOr<StoredDataFile> repack(const StoredDataFile& original, std::span<const u8> old_decoded,
                                      std::span<const u8> new_decoded, const ChecksumVerdict& checksums,
                                      RepackReport* report) {
  StoredDataFile out = original;
  RepackReport counts;
  if (!original.compressed) {
    // A plain data file stays plain: its bytes must not hold the compression magic, which would read as
    // a block set out of place.
    const u8* magic = reinterpret_cast<const u8*>(&BlockSet::kMagic);
    auto it = std::search(new_decoded.begin(), new_decoded.end(), magic, magic + sizeof BlockSet::kMagic);
    if (it != new_decoded.end())
      return absl::InvalidArgumentError(absl::StrFormat(
          "decompressed offset 0x%x: the new bytes hold the compression magic, which a plain data file cannot hold",
          it - new_decoded.begin()));
    out.plain.bytes.assign(new_decoded.begin(), new_decoded.end());
    // An empty data file (stored size 0) has no prefix; given bytes, it is written as a plain one.
    out.empty = new_decoded.empty() && original.empty;
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
    const SetContext context{codec::algorithm_of(compression_of(s.compression).value_or(Compression::lzo1x)),
                             checksums.rule, &checksums};
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
    return repack(plain, {}, decoded, checksums, report);
  }
  StoredDataFile out;
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
    const SetContext context{codec::algorithm_of(compression_of(s.compression).value_or(Compression::lzo1x)),
                             checksums.rule, &checksums};
    if (auto status = repack_resized(s, {}, decoded.subspan(at, n), context, size, counts); !status.ok()) return status;
    at += n;
    (set == &like.first ? out.first : out.second) = std::move(s);
  }
  if (report) *report = counts;
  return out;
}

}  // namespace anvil::forge
