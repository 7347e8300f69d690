#include "reader/forge/data_files.hpp"

#include <absl/strings/str_format.h>

#include <algorithm>
#include <cstring>
#include <functional>
#include <new>
#include <numeric>

#include "codec/forge_compression.hpp"
#include "codec/checksums.hpp"
#include "codec/lzo.hpp"
#include "model/counted.hpp"
#include "model/parallel.hpp"
#include "platform/memory.hpp"
#include "reader/byte_reader.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/signature_search.hpp"

namespace anvil::forge {
namespace {

// Whether block sets follow the layout's prefix of `stored` (FORGE.md 7: `[u32 n][8n bytes]` in layout 1,
// `[u32 b][b bytes]` in layout 2, none in layouts 0 and 3).
bool starts_compressed(std::span<const u8> stored, ForgeVariant variant) {
  std::size_t at = 0;
  if (variant.prefix_pairs() || variant.prefix_bytes()) {
    u32 n = 0;
    if (stored.size() < sizeof n) return false;
    std::memcpy(&n, stored.data(), sizeof n);
    const std::size_t unit = variant.prefix_pairs() ? 8 : 1;
    if (n > (stored.size() - sizeof n) / unit) return false;  // the declaration reports it
    at = sizeof n + unit * std::size_t{n};
  }
  u64 magic = 0;
  if (stored.size() - at < sizeof magic) return false;
  std::memcpy(&magic, stored.data() + at, sizeof magic);
  return magic == BlockSet::kMagic;
}

}  // namespace

absl::StatusOr<StoredDataFile> read_stored(std::span<const u8> bytes, const Archive& archive, std::size_t index,
                                           std::vector<std::span<const u8>>* runs) {
  const DataFileAt& file = archive.files[index];
  const ForgeVariant variant = archive.variant();
  StoredDataFile stored;
  stored.variant = variant;    // an empty one too: what it is written in when it gets bytes
  if (file.index.size == 0) {  // an empty data file (pyUbiForge2 meets some)
    stored.empty = true;
    return stored;
  }
  std::span<const u8> span = bytes.subspan(file.stored_offset(), file.index.size);
  stored.compressed = starts_compressed(span, variant);
  ByteReader reader(span);
  reader.skim_into(runs);
  serialize_root(reader, stored, variant.code());
  if (!reader.ok())
    return error_at(file.stored_offset() + reader.failure()->offset,
                    data_file_label(archive, index) + ": " + reader.failure()->message());
  if (reader.remaining() != 0)
    return error_at(file.stored_offset() + reader.pos(),
                    absl::StrFormat("%s: %s after the last block set", data_file_label(archive, index),
                                    counted(reader.remaining(), "byte")));
  // The one check that reads every byte: left to the reads that copy them (a skim reads the tables).
  if (!stored.compressed && !runs) {
    const std::vector<u8>& p = stored.plain.bytes;
    if (auto s = check_plain(bytes, archive, index, span.subspan(span.size() - p.size())); !s.ok()) return s;
  }
  return stored;
}

absl::Status check_plain(std::span<const u8> bytes, const Archive& archive, std::size_t index,
                         std::span<const u8> plain) {
  const u8* magic = reinterpret_cast<const u8*>(&BlockSet::kMagic);
  auto at = find_bytes(plain, {magic, sizeof BlockSet::kMagic});
  if (!at) return absl::OkStatus();
  return error_at(static_cast<u64>(plain.data() - bytes.data()) + *at,
                  data_file_label(archive, index) +
                      ": a plain data file must not hold the compression magic (a block set out of place)");
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

std::vector<SkimmedBlock> skimmed_blocks(const StoredDataFile& stored, std::span<const std::span<const u8>> runs) {
  std::vector<SkimmedBlock> out;
  if (!stored.compressed) return out;
  std::size_t k = 0;
  for (const std::optional<BlockSet>* set : {&stored.first, &stored.second}) {
    if (!set->has_value()) continue;
    const Compression compression = compression_of((*set)->compression).value_or(Compression::lzo1x);
    for (const Block& b : (*set)->blocks) {
      const std::span<const u8> run = runs[k++];
      out.push_back({b.checksum, run, b.uncompressed_size, run.size() == b.uncompressed_size, compression});
    }
    for (const Chunk& c : (*set)->chunks) {
      const std::span<const u8> run = runs[k++];
      if (c.kind == Chunk::kPlain)
        out.push_back({std::nullopt, run, run.size(), true, compression});
      else
        out.push_back({c.checksum, run, c.uncompressed_size, false, compression});
    }
  }
  return out;
}

namespace {
constexpr std::size_t kHugePage = std::size_t{2} << 20;
}

void FreeBuffer::operator()(u8* p) const {
  if (huge)
    ::operator delete (p, std::align_val_t{kHugePage});
  else
    ::operator delete(p);
}

DecodeBuffer allocate_decode_buffer(std::size_t size) {
  // Uninitialised: operator new, not new u8[n]() (nor a vector's resize, which zero-fills).
  if (size < 4 * kHugePage) return DecodeBuffer(static_cast<u8*>(::operator new(size)), FreeBuffer{false});
  const std::size_t rounded = (size + kHugePage - 1) / kHugePage * kHugePage;
  auto* p = static_cast<u8*>(::operator new (rounded, std::align_val_t{kHugePage}));
  platform::prefer_huge_pages(p, rounded);  // advice only: without it, ordinary pages
  return DecodeBuffer(p, FreeBuffer{true});
}

namespace {

// What decode() does for each block of a compressed data file, planned before anything is allocated: the
// blocks in block_layout() order, each one's stored bytes, whether it is stored plain, its checksum and its
// set's algorithm, every claimed size checked against its compressed bytes.
struct BlockPlan {
  std::vector<BlockAt> layout;
  std::vector<std::span<const u8>> src;
  std::vector<char> plain;
  std::vector<std::optional<u32>> checksum;
  std::vector<Compression> compression;
  u64 total = 0;  // the decompressed size
};

absl::StatusOr<BlockPlan> plan_blocks(const StoredDataFile& stored, u64 stored_offset,
                                      std::span<const std::span<const u8>> runs) {
  BlockPlan plan;
  plan.layout = block_layout(stored, stored_offset, runs);
  const BlockSet* sets[] = {stored.first ? &*stored.first : nullptr, stored.second ? &*stored.second : nullptr};
  for (std::size_t k = 0; k < plan.layout.size(); ++k) {
    const BlockAt& b = plan.layout[k];
    const BlockSet& set = *sets[b.set];
    // The stored bytes of the block: viewed in the runs of a skimming read, or its own.
    std::span<const u8> src = !runs.empty()       ? runs[k]
                              : set.max_size != 0 ? std::span<const u8>(set.blocks[b.block].stored.bytes)
                                                  : std::span<const u8>(set.chunks[b.block].stored.bytes);
    bool plain = false;
    std::optional<u32> checksum;
    if (set.max_size != 0) {
      const Block& block = set.blocks[b.block];
      plain = src.size() == block.uncompressed_size;
      checksum = block.checksum;
    } else {
      const Chunk& chunk = set.chunks[b.block];
      plain = chunk.kind == Chunk::kPlain;
      if (!plain) checksum = chunk.checksum;
    }
    if (!plain && b.decoded_size > codec::max_decompressed_size(src.size()))
      return error_at(b.stored_offset,
                      absl::StrFormat("set %d block %d: %d compressed bytes cannot decompress to the %d claimed", b.set,
                                      b.block, src.size(), b.decoded_size));
    plan.src.push_back(src);
    plan.plain.push_back(plain);
    plan.checksum.push_back(checksum);
    plan.compression.push_back(compression_of(set.compression).value_or(Compression::lzo1x));
    plan.total += b.decoded_size;
  }
  return plan;
}

// Block k's decompressed bytes (at its place in `out`) against its checksum by the archive's rule.
absl::Status check_block(const BlockPlan& plan, std::size_t k, const u8* out, const ChecksumVerdict& checksums) {
  const BlockAt& b = plan.layout[k];
  const std::optional<u32>& checksum = plan.checksum[k];
  if (!checksum || !checksums.rule) return absl::OkStatus();
  if (codec::checksum_by(*checksums.rule, plan.src[k], {out + b.decoded_offset, b.decoded_size}) == *checksum)
    return absl::OkStatus();
  return absl::DataLossError(absl::StrFormat(
      "offset 0x%x: set %d block %d: damaged: its checksum 0x%08x does not match the archive's checksum rule %s",
      b.stored_offset, b.set, b.block, *checksum, checksums.describe()));
}

// Block k decompressed (or copied, stored plain) into its place in `out`, then checked.
absl::Status decode_block(const BlockPlan& plan, std::size_t k, u8* out, const ChecksumVerdict& checksums) {
  const BlockAt& b = plan.layout[k];
  std::span<u8> dest(out + b.decoded_offset, b.decoded_size);
  const std::span<const u8> src = plan.src[k];
  if (plan.plain[k]) {
    if (!src.empty()) std::memcpy(dest.data(), src.data(), src.size());
  } else if (auto s = codec::decompress_into(codec::algorithm_of(plan.compression[k]), src, dest); !s.ok()) {
    return error_at(b.stored_offset, absl::StrFormat("set %d block %d: %s", b.set, b.block, s.message()));
  }
  return check_block(plan, k, out, checksums);
}

// Whether block k of `x` and of `y` lie at the same place and are stored the same way, in as many stored
// bytes (whether those are the same bytes is the caller's question).
bool same_block_place(const BlockPlan& x, const BlockPlan& y, std::size_t k) {
  const BlockAt &a = x.layout[k], &b = y.layout[k];
  return a.decoded_offset == b.decoded_offset && a.decoded_size == b.decoded_size && x.plain[k] == y.plain[k] &&
         x.compression[k] == y.compression[k] && x.src[k].size() == y.src[k].size();
}

std::size_t checked_blocks(const BlockPlan& plan) {
  return static_cast<std::size_t>(std::count_if(plan.checksum.begin(), plan.checksum.end(),
                                                [](const std::optional<u32>& c) { return c.has_value(); }));
}

}  // namespace

absl::StatusOr<Decoded> decode(const StoredDataFile& stored, u64 stored_offset, const ChecksumVerdict& checksums,
                               std::span<const std::span<const u8>> runs) {
  Decoded out;
  out.compression = compression_of(stored);
  if (!stored.compressed) {
    out.bytes = runs.empty() ? std::span<const u8>(stored.plain.bytes) : runs.back();
    return out;
  }
  auto plan = plan_blocks(stored, stored_offset, runs);
  if (!plan.ok()) return plan.status();
  // Every byte is written by a block below (each decompresses to exactly its size): no zero fill.
  out.owned = allocate_decode_buffer(plan->total);
  out.bytes = {out.owned.get(), static_cast<std::size_t>(plan->total)};
  for (std::size_t k = 0; k < plan->layout.size(); ++k)
    if (auto s = decode_block(*plan, k, out.owned.get(), checksums); !s.ok()) return s;
  out.checked_blocks = checked_blocks(*plan);
  return out;
}

bool decodes_alike(const StoredDataFile& x, std::span<const std::span<const u8>> runs_x, const StoredDataFile& y,
                   std::span<const std::span<const u8>> runs_y) {
  if (x.compressed != y.compressed) return false;
  if (!x.compressed) {
    const std::span<const u8> a = runs_x.empty() ? std::span<const u8>(x.plain.bytes) : runs_x.back();
    const std::span<const u8> b = runs_y.empty() ? std::span<const u8>(y.plain.bytes) : runs_y.back();
    return a.data() == b.data() && a.size() == b.size();
  }
  auto px = plan_blocks(x, 0, runs_x), py = plan_blocks(y, 0, runs_y);
  if (!px.ok() || !py.ok() || px->layout.size() != py->layout.size()) return false;
  for (std::size_t k = 0; k < px->layout.size(); ++k)
    if (!same_block_place(*px, *py, k) || px->src[k].data() != py->src[k].data())
      return false;  // the same stored bytes
  return true;
}

std::array<absl::StatusOr<Decoded>, 2> decode_together(const StoredSide& a, const StoredSide& b) {
  if (!a.stored.compressed || !b.stored.compressed) return {decode(a), decode(b)};
  auto plan_a = plan_blocks(a.stored, a.stored_offset, a.runs), plan_b = plan_blocks(b.stored, b.stored_offset, b.runs);
  if (!plan_a.ok() || !plan_b.ok()) return {decode(a), decode(b)};
  const BlockPlan &pa = *plan_a, &pb = *plan_b;
  std::array<Decoded, 2> out;
  for (int side = 0; side < 2; ++side) {
    const BlockPlan& plan = side == 0 ? pa : pb;
    out[side].compression = compression_of(side == 0 ? a.stored : b.stored);
    out[side].owned = allocate_decode_buffer(plan.total);
    out[side].bytes = {out[side].owned.get(), static_cast<std::size_t>(plan.total)};
    out[side].checked_blocks = checked_blocks(plan);
  }
  // B's block k is A's when it lies at the same place, is stored the same way and holds the same stored bytes:
  // it decompresses to the same bytes, which are copied (a data file and its edited copy share all but a few).
  auto shared = [&](std::size_t k) {
    return k < pa.layout.size() && same_block_place(pa, pb, k) &&
           std::memcmp(pa.src[k].data(), pb.src[k].data(), pa.src[k].size()) == 0;
  };
  // Two halves by decompressed offset, one per thread: a shared block and its copy fall in the same half. Each
  // half keeps the first error of each side in block order, the lower half's first.
  const u64 split = pa.total / 2;
  std::array<std::array<absl::Status, 2>, 2> failed;  // [half][side]
  auto run = [&](int half) {
    auto mine = [&](const BlockAt& at) { return (at.decoded_offset < split) == (half == 0); };
    for (std::size_t k = 0; k < pa.layout.size(); ++k)
      if (mine(pa.layout[k]) && failed[half][0].ok())
        failed[half][0] = decode_block(pa, k, out[0].owned.get(), a.checksums);
    for (std::size_t k = 0; k < pb.layout.size(); ++k) {
      if (!mine(pb.layout[k]) || !failed[half][1].ok()) continue;
      if (shared(k) && failed[half][0].ok()) {
        const BlockAt& at = pb.layout[k];
        std::memcpy(out[1].owned.get() + at.decoded_offset, out[0].owned.get() + at.decoded_offset, at.decoded_size);
        failed[half][1] = check_block(pb, k, out[1].owned.get(), b.checksums);
      } else {
        failed[half][1] = decode_block(pb, k, out[1].owned.get(), b.checksums);
      }
    }
  };
  on_two_threads([&] { run(1); }, [&] { run(0); });
  std::array<absl::StatusOr<Decoded>, 2> result = {absl::UnknownError(""), absl::UnknownError("")};
  for (int side = 0; side < 2; ++side) {
    const absl::Status& first = !failed[0][side].ok() ? failed[0][side] : failed[1][side];
    if (first.ok())
      result[side] = std::move(out[side]);
    else
      result[side] = first;
  }
  return result;
}

namespace {

// The entry table of a decompressed data file; with `runs`, skimmed (ByteReader::skim_into).
absl::Status read_data_file_table(std::span<const u8> decoded, DataFile& file, std::vector<std::span<const u8>>* runs,
                                  ForgeVariant variant) {
  if (decoded.empty()) return absl::OkStatus();  // an empty data file holds no entries
  ByteReader reader(decoded);
  reader.skim_into(runs);
  serialize_root(reader, file, variant.code());
  if (!reader.ok())
    return absl::InvalidArgumentError(
        absl::StrFormat("decompressed offset 0x%x: %s", reader.failure()->offset, reader.failure()->message()));
  if (reader.remaining() != 0)
    return absl::InvalidArgumentError(absl::StrFormat("decompressed offset 0x%x: %s after the last body", reader.pos(),
                                                      counted(reader.remaining(), "byte")));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<DataFile> parse_data_file(std::span<const u8> decoded, ForgeVariant variant) {
  DataFile file;
  if (auto s = read_data_file_table(decoded, file, nullptr, variant); !s.ok()) return s;
  return file;
}

absl::StatusOr<DataFileView> view_data_file(std::span<const u8> decoded, ForgeVariant variant) {
  DataFileView view;
  view.bytes = decoded;
  view.variant = variant;
  if (auto s = read_data_file_table(decoded, view.file, &view.runs, variant); !s.ok()) return s;
  view.first_entry_run = view.runs.size() - 2 * view.file.entries.size();
  return view;
}

u64 entry_head_size(const Entry& entry, ForgeVariant variant) {
  FieldWalker walker(variant.code());
  HeadOf<Entry>{const_cast<Entry&>(entry)}.serialize(walker, variant.code());
  return walker.size;
}

u64 data_size_offset(const Entry& entry, ForgeVariant variant) {
  FieldWalker walker(variant.code());
  walker.wanted = "data_size";
  HeadOf<Entry>{const_cast<Entry&>(entry)}.serialize(walker, variant.code());
  return *walker.wanted_at;
}

u64 table_end(const DataFile& file, ForgeVariant variant) {
  // The declaration walked up to the bodies: the count, the entries' rows and the tails of the layout.
  FieldWalker walker(variant.code());
  const_cast<DataFile&>(file).serialize(walker, variant.code());
  return *walker.bodies_at;
}

namespace {
// The bytes of an entry's resource header (type, size, name, flag and its records), before its body.
u64 resource_header_size(const Entry& entry, ForgeVariant variant) {
  FieldWalker walker(variant.code());
  walker.wanted = "body";
  BodyOf<Entry>{const_cast<Entry&>(entry)}.serialize(walker, variant.code());
  return *walker.wanted_at;
}
}  // namespace

std::vector<BodyAt> body_layout(const DataFile& file, ForgeVariant variant) {
  std::vector<BodyAt> out;
  if (file.entries.empty() && file.unknown.bytes.empty() && file.unknown_26.bytes.empty()) return out;
  u64 at = table_end(file, variant);
  for (std::size_t i = 0; i < file.entries.size(); ++i) {
    const Entry& e = file.entries[i];
    at += resource_header_size(e, variant);
    out.push_back({i, at, e.body.bytes.size()});
    at += e.body.bytes.size();
  }
  return out;
}

std::vector<BodyAt> body_layout(const DataFileView& view) {
  std::vector<BodyAt> out;
  for (std::size_t i = 0; i < view.file.entries.size(); ++i) {
    std::span<const u8> body = view.body(i);
    out.push_back({i, static_cast<u64>(body.data() - view.bytes.data()), body.size()});
  }
  return out;
}

std::vector<SizeFieldsAt> size_fields(const DataFileView& view) {
  std::vector<SizeFieldsAt> out;
  u64 head_at = sizeof(u16);  // where the entry's head starts in the entries' table
  std::size_t headed = 0;
  for (const BodyAt& body : body_layout(view)) {
    for (; headed < body.entry; ++headed) head_at += entry_head_size(view.file.entries[headed], view.variant);
    const Entry& e = view.file.entries[body.entry];
    // [u32 resource_type][u32 file_size][u32 name_length][name][u8 flag], flag 1: [3 bytes][u32 k][12k bytes]
    const u64 flag_part = e.flag == 1 ? e.flag_unknown.bytes.size() + 4 + 12 * u64{e.flag_records.size()} : 0;
    const u64 header_tail = flag_part + 1 + view.name(body.entry).size() + 4;
    out.push_back({body, head_at + data_size_offset(e, view.variant), body.offset - header_tail - 4});
  }
  return out;
}

absl::Status name_data_file(const absl::Status& status, const Archive& archive, std::size_t index) {
  // error_at's "offset 0x…: what" with the data file named after the offset
  std::string message(status.message());
  const std::string label = data_file_label(archive, index) + ": ";
  auto colon = message.find(": ");
  if (colon == std::string::npos) return absl::Status(status.code(), label + message);
  return absl::Status(status.code(), message.substr(0, colon + 2) + label + message.substr(colon + 2));
}

namespace {

// read_data_file()'s first step: the stored form into `out` (skimmed into `out.runs` unless `copy_stored`),
// a skimmed plain one checked as read_stored() checks a copied one.
absl::Status read_stored_into(std::span<const u8> bytes, const Archive& archive, std::size_t index, bool copy_stored,
                              DataFileRead& out) {
  auto stored = read_stored(bytes, archive, index, copy_stored ? nullptr : &out.runs);
  if (!stored.ok()) return stored.status();
  out.stored = std::move(*stored);
  if (!copy_stored && !out.stored.compressed && !out.runs.empty())
    return check_plain(bytes, archive, index, out.runs.back());
  return absl::OkStatus();
}

StoredSide stored_side(const DataFileRead& read, const Archive& archive, std::size_t index,
                       const ChecksumVerdict& checksums) {
  return {read.stored, archive.files[index].stored_offset(), checksums, read.runs};
}

}  // namespace

absl::StatusOr<DataFileRead> read_data_file(std::span<const u8> bytes, const Archive& archive, std::size_t index,
                                            const ChecksumVerdict& checksums, bool copy_stored) {
  DataFileRead out;
  if (auto s = read_stored_into(bytes, archive, index, copy_stored, out); !s.ok()) return s;
  auto decoded = decode(stored_side(out, archive, index, checksums));
  if (!decoded.ok()) return name_data_file(decoded.status(), archive, index);
  out.decoded = std::move(*decoded);
  return out;
}

std::array<absl::StatusOr<DataFileRead>, 2> read_data_files_together(const DataFileIn& a, const DataFileIn& b) {
  const DataFileIn* sides[] = {&a, &b};
  std::array<DataFileRead, 2> reads;
  std::array<absl::Status, 2> failed;
  for (int s = 0; s < 2; ++s)
    failed[s] = read_stored_into(sides[s]->bytes, sides[s]->archive, sides[s]->index, false, reads[s]);
  auto side = [&](int s) { return stored_side(reads[s], sides[s]->archive, sides[s]->index, sides[s]->checksums); };
  std::array<absl::StatusOr<Decoded>, 2> decoded = {absl::UnknownError(""), absl::UnknownError("")};
  if (failed[0].ok() && failed[1].ok()) {
    decoded = decode_together(side(0), side(1));
  } else {
    for (int s = 0; s < 2; ++s)
      if (failed[s].ok()) decoded[s] = decode(side(s));
  }
  std::array<absl::StatusOr<DataFileRead>, 2> out = {absl::UnknownError(""), absl::UnknownError("")};
  for (int s = 0; s < 2; ++s) {
    if (!failed[s].ok()) {
      out[s] = failed[s];
    } else if (!decoded[s].ok()) {
      out[s] = name_data_file(decoded[s].status(), sides[s]->archive, sides[s]->index);
    } else {
      reads[s].decoded = std::move(*decoded[s]);
      out[s] = std::move(reads[s]);
    }
  }
  return out;
}

bool data_sizes_agree(const DataFileView& view) {
  // Each resource from its resource_type, the u32 before its file_size, to its body's end. Not from the
  // table's end: in a view the tails after the table (layout 1's m bytes, version 26's x bytes) are runs,
  // which a walk of the declaration does not count.
  for (const SizeFieldsAt& at : size_fields(view))
    if (view.file.entries[at.body.entry].data_size != at.body.offset + at.body.size - at.resource_at()) return false;
  return true;
}

absl::StatusOr<DataFileView> view_data_file_by_content(std::span<const u8> decoded, std::optional<u8> named) {
  // Version 27's data files are version 25's; layouts 2 and 3 differ only in their stored form.
  std::vector<ForgeVariant> forms;
  for (u32 version : {25u, 26u})
    for (u8 layout : plausible_layouts(version))
      if (!named || layout == *named) forms.push_back({version, layout});
  absl::StatusOr<DataFileView> first = absl::InvalidArgumentError("no form");
  std::optional<DataFileView> parsed;  // the first form that parses, when no form's sizes agree
  for (const ForgeVariant& variant : forms) {
    auto view = view_data_file(decoded, variant);
    if (view.ok() && data_sizes_agree(*view)) return view;
    if (view.ok() && !parsed) parsed = std::move(*view);
    if (!view.ok() && &variant == &forms.front()) first = view.status();
  }
  if (parsed) return std::move(*parsed);
  return first;
}

std::vector<u8> plausible_layouts(u32 archive_version) {
  // Each version's likeliest first (pyUbiForge2's game classes): 25 is AC1 (0) or AC2 and after (1),
  // 27 is Unity (3); the rest after.
  if (archive_version == 27) return {3, 2, 1, 0};
  if (archive_version == 26) return {1, 2, 3, 0};
  return {1, 0, 2, 3};
}

std::vector<std::size_t> smallest_first(const Archive& archive) {
  std::vector<std::size_t> order(archive.files.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return archive.files[a].index.size < archive.files[b].index.size;
  });
  return order;
}

u8 detect_layout(std::span<const u8> bytes, Archive& archive, std::optional<LayoutEvidence>* evidence) {
  const std::vector<u8> candidates = plausible_layouts(archive.header.version);
  // The first data file that reads in a layout decides, the smallest first (deciding costs decompressing
  // it, up to once per layout): the first layout whose stored form and entries' table parse exactly. A data
  // file that reads in none (damaged, or put back as raw bytes) is passed over. Among the layouts that parse
  // it, the first in which every entry's data_size is its resource's size (the entry header and body,
  // FORGE.md 5): layouts 1 and 2 can both parse a data file of one entry.
  const u8 before = archive.data_layout;
  for (std::size_t i : smallest_first(archive)) {
    if (archive.files[i].index.size == 0) continue;
    auto read = read_in_found_layout(
        archive,
        [&]() -> absl::StatusOr<LayoutEvidence> {
          auto read = read_data_file(bytes, archive, i, ChecksumVerdict{});
          if (!read.ok()) return read.status();
          auto view = view_data_file(read->decoded.bytes, archive.variant());
          if (!view.ok()) return view.status();
          const bool agree = data_sizes_agree(*view);
          return LayoutEvidence{i, std::move(*read), agree};
        },
        [](const LayoutEvidence& e) { return e.sizes_agree; });
    if (!read.ok()) continue;
    if (evidence) *evidence = std::move(*read);
    return archive.data_layout;
  }
  // Data files put back as raw bytes have no entries' table to parse: then the first layout in which every
  // data file's stored form (prefix, block sets or plain bytes) reads exactly, one at least compressed. Skimmed:
  // nothing decompressed.
  for (u8 layout : candidates) {
    archive.data_layout = layout;
    bool all = true, compressed = false;  // plain bytes read in any layout without a prefix: block sets tell
    for (std::size_t i = 0; i < archive.files.size() && all; ++i) {
      if (archive.files[i].index.size == 0) continue;
      std::vector<std::span<const u8>> runs;
      auto stored = read_stored(bytes, archive, i, &runs);
      compressed |= stored.ok() && stored->compressed;
      all = stored.ok() &&
            (stored->compressed || check_plain(bytes, archive, i, runs.empty() ? std::span<const u8>{} : runs[0]).ok());
    }
    if (all && compressed) return layout;
  }
  archive.data_layout = before;
  return candidates.front();  // none reads: the reads name the data file, the offset and the rule
}

namespace {

// The skimmed blocks of a compressed data file, or nothing (plain, or its stored form does not read).
std::optional<std::vector<SkimmedBlock>> skim(std::span<const u8> bytes, const Archive& archive, std::size_t index) {
  const DataFileAt& f = archive.files[index];
  // A plain data file has no checksum: not read (its bytes are not copied into a model).
  if (!starts_compressed(bytes.subspan(f.stored_offset(), f.index.size), archive.variant())) return std::nullopt;
  std::vector<std::span<const u8>> runs;  // the blocks are viewed in the archive, not copied
  auto stored = read_stored(bytes, archive, index, &runs);
  if (!stored.ok() || !stored->compressed) return std::nullopt;
  return skimmed_blocks(*stored, runs);
}

}  // namespace

ChecksumVote vote_stored(std::span<const u8> bytes, const Archive& archive, std::size_t index) {
  ChecksumVote vote;
  auto blocks = skim(bytes, archive, index);
  if (!blocks) return vote;
  for (const SkimmedBlock& b : *blocks)
    if (b.checksum) vote.count(rules_matching(*b.checksum, b.stored, {}) & kStoredRules);
  return vote;
}

ChecksumVote vote_decoded(std::span<const u8> bytes, const Archive& archive, std::size_t index) {
  ChecksumVote vote;
  vote.decoded = true;
  auto blocks = skim(bytes, archive, index);
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

ArchiveChecksums archive_checksums_then(std::span<const u8> bytes, const Archive& archive,
                                        const std::function<void(std::size_t index)>& voted, unsigned threads) {
  ArchiveChecksums out;
  auto take = [&](auto vote_of) {
    out.files.assign(archive.files.size(), ChecksumVote{});
    // Each data file votes into its own slot, so the workers share nothing but the next index.
    for_each_index(archive.files.size(), threads, [&](std::size_t i) {
      out.files[i] = vote_of(bytes, archive, i);
      if (voted) voted(i);
    });
    ChecksumVote total;
    for (const ChecksumVote& vote : out.files) total += vote;
    out.verdict = judge(total);
  };
  take(vote_stored);
  if (out.verdict.settled()) return out;
  take(vote_decoded);
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
