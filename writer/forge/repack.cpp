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
  const std::optional<ChecksumRule> rule = checksums.rule;
  if (new_decoded.size() != old_decoded.size())
    return absl::InvalidArgumentError(
        absl::StrFormat("the new decompressed data file has %d bytes, not %d (sizes do not change)", new_decoded.size(),
                        old_decoded.size()));
  StoredDataFile out = original;
  RepackReport counts;
  if (!original.compressed) {
    out.plain.bytes.assign(new_decoded.begin(), new_decoded.end());
    if (report) *report = counts;
    return out;
  }
  std::size_t at = 0;
  for (std::optional<BlockSet>* set : {&out.first, &out.second}) {
    if (!set->has_value()) continue;
    BlockSet& s = **set;
    const codec::Algorithm algorithm = codec::algorithm_of(compression_of(s.compression).value_or(Compression::lzo1x));
    auto refuse = [&]() {
      return absl::FailedPreconditionError(absl::StrCat("the archive's checksum rule is ", checksums.describe(),
                                                        checksums.blocks == 0 ? " (no block carries a checksum)" : "",
                                                        ", so a changed compressed block cannot be given a checksum"));
    };
    if (s.max_size != 0) {
      for (Block& block : s.blocks) {
        ++counts.blocks;
        std::span<const u8> before = old_decoded.subspan(at, block.uncompressed_size);
        std::span<const u8> after = new_decoded.subspan(at, block.uncompressed_size);
        at += block.uncompressed_size;
        if (same(before, after)) continue;
        if (!rule) return refuse();
        ++counts.recompressed;
        std::vector<u8> packed = codec::compress(algorithm, after);
        if (packed.size() >= after.size()) packed.assign(after.begin(), after.end());  // stored plain
        block.stored.bytes = std::move(packed);
        block.checksum = codec::checksum_by(*rule, block.stored.bytes, after);
      }
    } else {
      for (Chunk& chunk : s.chunks) {
        ++counts.blocks;
        const u64 size = chunk.decoded_size();
        std::span<const u8> before = old_decoded.subspan(at, size);
        std::span<const u8> after = new_decoded.subspan(at, size);
        at += size;
        if (same(before, after)) continue;
        ++counts.recompressed;
        std::vector<u8> packed = codec::compress(algorithm, after);
        // A plain chunk's size is a u16: a larger one stays compressed even when that is not smaller.
        if (packed.size() >= after.size() && after.size() <= std::numeric_limits<u16>::max()) {
          chunk.kind = Chunk::kPlain;
          chunk.stored.bytes.assign(after.begin(), after.end());
          chunk.uncompressed_size = 0;
          chunk.checksum = 0;
        } else {
          if (!rule) return refuse();
          chunk.kind = Chunk::kCompressed;
          chunk.uncompressed_size = static_cast<u32>(size);
          chunk.stored.bytes = std::move(packed);
          chunk.checksum = codec::checksum_by(*rule, chunk.stored.bytes, after);
        }
      }
    }
  }
  if (report) *report = counts;
  return out;
}

}  // namespace anvil::forge
