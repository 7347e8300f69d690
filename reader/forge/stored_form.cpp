// A data file's stored form (FORGE.md 2, 7): the layout's prefix, the block sets or the plain bytes, and
// where each block lies in the archive.
#include <absl/strings/str_format.h>

#include <cstring>
#include <optional>
#include <string>
#include <utility>

#include "model/counted.hpp"
#include "model/forge/forge_error.hpp"
#include "reader/byte_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/signature_search.hpp"

namespace anvil::forge {

bool starts_compressed(std::span<const u8> stored, ForgeVariant variant) {
  std::size_t at = 0;
  if (const std::size_t unit = prefix_unit(variant.prefix())) {
    u32 n = 0;
    if (stored.size() < sizeof n) return false;
    std::memcpy(&n, stored.data(), sizeof n);
    if (n > (stored.size() - sizeof n) / unit) return false;  // the declaration reports it
    at = sizeof n + unit * std::size_t{n};
  }
  u64 magic = 0;
  if (stored.size() - at < sizeof magic) return false;
  std::memcpy(&magic, stored.data() + at, sizeof magic);
  return magic == BlockSet::kMagic;
}

namespace {

// Where a stored form failed to read (an offset in `span`) and why.
struct StoredFault {
  u64 offset = 0;
  std::string reason;
};

// The declaration of a stored form read from `span` (its whole stored bytes); `runs`: a skimming read.
std::optional<StoredFault> parse_stored(std::span<const u8> span, ForgeVariant variant, StoredDataFile& stored,
                                        std::vector<std::span<const u8>>* runs) {
  stored.compressed = starts_compressed(span, variant);
  ByteReader reader(span);
  reader.skim_into(runs);
  serialize_root(reader, stored, variant.code());
  if (!reader.ok()) return StoredFault{reader.failure()->offset, reader.failure()->message()};
  if (reader.remaining() != 0)
    return StoredFault{reader.pos(),
                       absl::StrFormat("%s after the last block set", counted(reader.remaining(), "byte"))};
  return std::nullopt;
}

// Where the compression magic lies in a plain data file, which must not hold it (a block set out of place).
std::optional<std::size_t> magic_in_plain(std::span<const u8> plain) {
  const u8* magic = reinterpret_cast<const u8*>(&BlockSet::kMagic);
  return find_bytes(plain, {magic, sizeof BlockSet::kMagic});
}

constexpr const char* kMagicInPlain =
    "a plain data file must not hold the compression magic (a block set out of place)";

}  // namespace

absl::StatusOr<StoredDataFile> read_stored(std::span<const u8> bytes, const Archive& archive, ForgeVariant variant,
                                           std::size_t index, std::vector<std::span<const u8>>* runs) {
  const DataFileAt& file = archive.files[index];
  StoredDataFile stored;
  stored.variant = variant;    // an empty one too: what it is written in when it gets bytes
  if (file.index.size == 0) {  // an empty data file (pyUbiForge2 meets some)
    stored.empty = true;
    return stored;
  }
  std::span<const u8> span = bytes.subspan(file.stored_offset(), file.index.size);
  if (auto fault = parse_stored(span, variant, stored, runs))
    return ForgeError{.offset = file.stored_offset() + fault->offset,
                      .data_file = data_file_ref(archive, index),
                      .reason = std::move(fault->reason),
                      .read_as = read_as(variant)}
        .status();
  // The one check that reads every byte: left to the reads that copy them (a skim reads the tables).
  if (!stored.compressed && !runs) {
    const std::vector<u8>& p = stored.plain.bytes;
    if (auto s = check_plain(bytes, archive, variant, index, span.subspan(span.size() - p.size())); !s.ok()) return s;
  }
  return stored;
}

absl::StatusOr<StoredDataFile> read_stored_alone(std::span<const u8> stored_bytes, ForgeVariant variant) {
  StoredDataFile stored;
  stored.variant = variant;
  if (stored_bytes.empty()) {
    stored.empty = true;
    return stored;
  }
  auto error = [&](u64 offset, std::string reason) {
    return ForgeError{.offset = offset, .reason = std::move(reason), .read_as = read_as(variant)}.status();
  };
  if (auto fault = parse_stored(stored_bytes, variant, stored, nullptr)) return error(fault->offset, fault->reason);
  if (!stored.compressed) {
    const std::vector<u8>& p = stored.plain.bytes;
    if (auto at = magic_in_plain(p)) return error(stored_bytes.size() - p.size() + *at, kMagicInPlain);
  }
  return stored;
}

absl::Status check_plain(std::span<const u8> bytes, const Archive& archive, ForgeVariant as, std::size_t index,
                         std::span<const u8> plain) {
  auto at = magic_in_plain(plain);
  if (!at) return absl::OkStatus();
  return ForgeError{.offset = static_cast<u64>(plain.data() - bytes.data()) + *at,
                    .data_file = data_file_ref(archive, index),
                    .reason = kMagicInPlain,
                    .read_as = read_as(as)}
      .status();
}

Compression compression_of(const StoredDataFile& stored) {
  if (!stored.first) return Compression::plain;
  return compression_of(stored.first->compression).value_or(Compression::plain);
}

std::vector<BlockAt> block_layout(const StoredDataFile& stored, u64 stored_offset,
                                  std::span<const std::span<const u8>> runs) {
  std::vector<BlockAt> out;
  // The stored size of the next block or chunk (`own`: its bytes when they were copied).
  std::size_t k = 0;
  auto next_size = [&](const OpaqueBytes& own) -> u64 { return runs.empty() ? own.bytes.size() : runs[k++].size(); };
  const ForgeVariant variant = stored.variant;
  // The sizes of the heads are the declarations' (by layout), walked on the set and on a chunk without bytes.
  auto set_head_size = [&](const BlockSet& set) {
    FieldWalker walker(variant.code());
    const_cast<BlockSet&>(set).serialize(walker, variant.code());
    return u64{*walker.bodies_at};
  };
  auto chunk_head_size = [&](u8 kind) {
    FieldWalker walker(variant.code());
    Chunk head;
    head.kind = kind;
    head.serialize(walker, variant.code());
    return u64{walker.size};
  };
  const u64 plain_chunk_head = chunk_head_size(Chunk::kPlain),
            compressed_chunk_head = chunk_head_size(Chunk::kCompressed);
  u64 at = stored_offset + prefix_wire_size(stored, variant);
  u64 decoded = 0;
  const std::optional<BlockSet>* sets[] = {&stored.first, &stored.second};
  for (std::size_t s = 0; s < 2; ++s) {
    if (!sets[s]->has_value()) continue;
    const BlockSet& set = **sets[s];
    at += set_head_size(set);
    if (set.max_size != 0) {
      for (std::size_t b = 0; b < set.blocks.size(); ++b) {
        const Block& block = set.blocks[b];
        out.push_back({s, b, at, decoded, block.uncompressed_size});
        at += Block::min_body_wire_size + next_size(block.stored);
        decoded += block.uncompressed_size;
      }
    } else {
      for (std::size_t c = 0; c < set.chunks.size(); ++c) {
        const Chunk& chunk = set.chunks[c];
        const u64 size = next_size(chunk.stored);
        const u64 decoded_size = chunk.kind == Chunk::kPlain ? size : chunk.uncompressed_size;
        out.push_back({s, c, at, decoded, decoded_size});
        at += (chunk.kind == Chunk::kPlain ? plain_chunk_head : compressed_chunk_head) + size;
        decoded += decoded_size;
      }
    }
  }
  return out;
}

}  // namespace anvil::forge
