#include "writer/forge/new_blocks.hpp"

#include <limits>

#include "codec/lzo.hpp"

namespace anvil::forge {

codec::Algorithm set_algorithm(const BlockSet& set) {
  return codec::algorithm_of(compression_of(set.compression).value_or(Compression::lzo1x));
}

bool append_new_blocks(BlockSet& set, std::optional<ChecksumRule> rule, std::span<const std::span<const u8>> parts) {
  const bool blocks = set.max_size != 0;
  if (blocks && !parts.empty() && !rule) return false;
  std::vector<std::vector<u8>> packed = codec::compress_all(set_algorithm(set), parts);
  std::vector<Chunk> chunks;
  for (std::size_t k = 0; k < parts.size(); ++k) {
    std::span<const u8> part = parts[k];
    if (blocks) {
      Block block;
      block.uncompressed_size = static_cast<u16>(part.size());
      if (packed[k].size() >= part.size()) packed[k].assign(part.begin(), part.end());  // stored plain
      block.stored.bytes = std::move(packed[k]);
      block.checksum = codec::checksum_by(*rule, block.stored.bytes, part);
      set.blocks.push_back(std::move(block));
      continue;
    }
    Chunk chunk;
    if (packed[k].size() >= part.size() && part.size() <= std::numeric_limits<u16>::max()) {
      chunk.kind = Chunk::kPlain;
      chunk.stored.bytes.assign(part.begin(), part.end());
    } else {
      if (!rule) return false;
      chunk.kind = Chunk::kCompressed;
      chunk.uncompressed_size = static_cast<u32>(part.size());
      chunk.stored.bytes = std::move(packed[k]);
      chunk.checksum = codec::checksum_by(*rule, chunk.stored.bytes, part);
    }
    chunks.push_back(std::move(chunk));
  }
  for (Chunk& c : chunks) set.chunks.push_back(std::move(c));
  return true;
}

std::vector<std::span<const u8>> cut_into(std::span<const u8> data, u64 cut) {
  std::vector<std::span<const u8>> parts;
  for (u64 at = 0; at < data.size(); at += cut) parts.push_back(data.subspan(at, std::min<u64>(cut, data.size() - at)));
  return parts;
}

}  // namespace anvil::forge
