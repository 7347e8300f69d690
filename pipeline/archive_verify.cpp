#include "pipeline/archive_verify.hpp"

#include <absl/strings/str_format.h>

#include <algorithm>
#include <cstring>

#include "codec/forge_compression.hpp"
#include "codec/lzo.hpp"
#include "pipeline/read_back.hpp"
#include "reader/byte_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "writer/byte_writer.hpp"
#include "writer/forge/archive_writer.hpp"
#include "writer/forge/repack.hpp"

namespace anvil::forge {
namespace {

// Compares what the writer writes with the original as it comes: the earliest differing offset.
class ComparingSink final : public ByteSink {
 public:
  explicit ComparingSink(std::span<const u8> original) : original_(original) {}
  absl::Status write_at(u64 offset, std::span<const u8> bytes) override {
    if (offset > original_.size() || bytes.size() > original_.size() - offset) {
      note(std::min<u64>(offset, original_.size()));
    } else if (auto at = first_difference(original_.subspan(offset, bytes.size()), bytes)) {
      note(offset + *at);
    }
    return absl::OkStatus();
  }
  std::optional<u64> first_difference_at() const { return first_; }

 private:
  void note(u64 at) { first_ = first_ ? std::min(*first_, at) : at; }
  std::span<const u8> original_;
  std::optional<u64> first_;
};

// Every compressed block of `stored` re-compressed from its decompressed bytes.
void recompress(const StoredDataFile& stored, std::span<const u8> decoded, DataFileVerify& out) {
  const BlockSet* sets[] = {stored.first ? &*stored.first : nullptr, stored.second ? &*stored.second : nullptr};
  for (const BlockAt& b : block_layout(stored, 0)) {
    const BlockSet& set = *sets[b.set];
    std::span<const u8> bytes;
    if (set.max_size != 0) {
      if (set.blocks[b.block].is_plain()) continue;
      bytes = set.blocks[b.block].stored.bytes;
    } else {
      if (set.chunks[b.block].kind == Chunk::kPlain) continue;
      bytes = set.chunks[b.block].stored.bytes;
    }
    Compression c = compression_of(set.compression).value_or(Compression::lzo1x);
    std::vector<u8> again = codec::compress(codec::algorithm_of(c), decoded.subspan(b.decoded_offset, b.decoded_size));
    Recompressed& r = out.recompressed[c];
    ++r.blocks;
    r.identical += std::equal(again.begin(), again.end(), bytes.begin(), bytes.end());
  }
}

// The entry table re-encoded from its fields and the objects of every body round-tripped.
void verify_contents(std::span<const u8> decoded, const VerifyOptions& options, DataFileVerify& out,
                     const std::string& label) {
  out.decompressed_size = decoded.size();
  out.objects.size = decoded.size();
  auto file = parse_data_file(decoded);
  if (!file.ok()) {
    out.error = label + std::string(file.status().message());
    return;
  }
  out.entries = file->entries.size();
  std::vector<u8> table;
  if (!decoded.empty()) {
    ByteWriter writer(table);
    file->serialize(writer, 0);
  }
  out.table_difference = first_difference(decoded, table);
  std::size_t carved = 0;
  for (const BodyAt& body : body_layout(*file)) {
    VerifyReport r = verify_bytes(decoded.subspan(body.offset, body.size), options.game, options.json);
    out.objects.objects += r.objects;
    out.objects.near_misses += r.near_misses;
    carved += r.size - r.opaque_bytes;
    if (!r.identical() && out.objects.identical()) {
      out.objects.first_difference = body.offset + *r.first_difference;
      out.objects.difference = absl::StrFormat("entry %d: %s", body.entry, r.difference);
    }
  }
  out.objects.opaque_bytes = decoded.size() - carved;
}

}  // namespace

TablesVerify verify_tables(std::span<const u8> bytes, const Archive& archive) {
  ComparingSink sink(bytes);
  TablesVerify out;
  auto placed = write_archive(bytes, archive, {}, sink);
  if (!placed.ok())
    out.first_difference = 0;
  else
    out.first_difference = sink.first_difference_at();
  return out;
}

DataFileVerify verify_data_file(std::span<const u8> bytes, const Archive& archive, std::size_t index,
                                const VerifyOptions& options, const ChecksumVerdict& checksums) {
  DataFileVerify out;
  const DataFileAt& at = archive.files[index];
  out.stored_size = at.index.size;
  auto stored = read_stored(bytes, archive, index);
  if (!stored.ok()) {
    out.error = std::string(stored.status().message());
    return out;
  }
  out.compression = compression_of(*stored);
  if (auto d = first_difference(bytes.subspan(at.stored_offset(), at.index.size), encode_stored(*stored)))
    out.stored_difference = at.stored_offset() + *d;
  auto decoded = decode(*stored, at.stored_offset(), checksums);
  if (!decoded.ok()) {
    out.error = std::string(name_data_file(decoded.status(), archive, index).message());
    return out;
  }
  out.checked_blocks = decoded->checked_blocks;
  verify_contents(decoded->bytes, options, out, data_file_label(archive, index) + ": ");
  if (options.recompress) recompress(*stored, decoded->bytes, out);
  return out;
}

DataFileVerify verify_decompressed(std::span<const u8> decoded, const VerifyOptions& options) {
  DataFileVerify out;
  out.stored_size = decoded.size();
  verify_contents(decoded, options, out, "");
  return out;
}

}  // namespace anvil::forge
