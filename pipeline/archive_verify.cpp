#include "pipeline/archive_verify.hpp"

#include <absl/strings/str_format.h>

#include <algorithm>
#include <cstring>
#include <optional>
#include <string>

#include "codec/forge_compression.hpp"
#include "codec/lzo.hpp"
#include "model/forge/forge_error.hpp"
#include "pipeline/read_back.hpp"
#include "reader/byte_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "writer/byte_writer.hpp"
#include "writer/forge/archive_writer.hpp"
#include "writer/forge/repack.hpp"

namespace anvil::forge {
namespace {

// Where `written`, a skimmed structure re-encoded without its runs (ByteWriter::skim_from, which left run k
// out at written offset cuts[k]), first differs from `original` without those runs (views of `original`,
// in order): the runs themselves are the original's bytes, so this is where the whole re-encoding differs.
std::optional<u64> first_difference_skimmed(std::span<const u8> original, std::span<const u8> written,
                                            std::span<const std::span<const u8>> runs,
                                            std::span<const std::size_t> cuts) {
  if (cuts.size() != runs.size()) return 0;
  std::size_t from = 0, w = 0;  // in the original, in what was written
  for (std::size_t k = 0; k <= runs.size(); ++k) {
    const bool last = k == runs.size();
    const std::size_t to = last ? original.size() : static_cast<std::size_t>(runs[k].data() - original.data());
    const std::size_t w_to = last ? written.size() : cuts[k];
    if (to < from || w_to < w || w_to > written.size()) return from;
    if (auto d = first_difference(original.subspan(from, to - from), written.subspan(w, w_to - w))) return from + *d;
    from = to + (last ? 0 : runs[k].size());
    w = w_to;
  }
  return std::nullopt;
}

// A structure read by skimming (`runs`, views of `original`) re-encoded without its runs and compared with
// `original`: the first differing offset. Only the fields between the runs are written and compared.
template <class T>
std::optional<u64> skimmed_difference(T& value, std::span<const u8> original, std::span<const std::span<const u8>> runs,
                                      ForgeVariant variant) {
  std::vector<u8> written;
  std::vector<std::size_t> cuts;
  bool matched = false;
  {
    ByteWriter writer(written);
    writer.skim_from(runs, &cuts);
    serialize_root(writer, value, variant.code());
    matched = writer.runs_matched();
  }
  if (!matched) return 0;
  return first_difference_skimmed(original, written, runs, cuts);
}

// Compares what the writer writes with the original as it comes: the earliest differing offset.
class ComparingSink final : public ByteSink {
 public:
  explicit ComparingSink(std::span<const u8> original) : original_(original) {}
  absl::Status write_at(u64 offset, std::span<const u8> bytes) override {
    if (offset > original_.size() || bytes.size() > original_.size() - offset) {
      note(std::min<u64>(offset, original_.size()));
    } else if (bytes.data() == original_.data() + offset) {
      // The original's own bytes in their place (a data file copied as it is): nothing to compare, and
      // no page of them is read.
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

// Every compressed block of `stored` (read by skimming: its blocks in `runs`) re-compressed from its
// decompressed bytes.
void recompress(const StoredDataFile& stored, std::span<const std::span<const u8>> runs, std::span<const u8> decoded,
                DataFileVerify& out) {
  const BlockSet* sets[] = {stored.first ? &*stored.first : nullptr, stored.second ? &*stored.second : nullptr};
  const std::vector<SkimmedBlock> blocks = skimmed_blocks(stored, runs);
  const std::vector<BlockAt> layout = block_layout(stored, 0, runs);
  for (std::size_t k = 0; k < layout.size(); ++k) {
    const BlockAt& b = layout[k];
    const BlockSet& set = *sets[b.set];
    if (blocks[k].plain) continue;
    std::span<const u8> bytes = blocks[k].stored;
    Compression c = compression_of(set.compression).value_or(Compression::lzo1x);
    std::vector<u8> again = codec::compress(codec::algorithm_of(c), decoded.subspan(b.decoded_offset, b.decoded_size));
    Recompressed& r = out.recompressed[c];
    ++r.blocks;
    r.identical += std::equal(again.begin(), again.end(), bytes.begin(), bytes.end());
  }
}

// The entry table re-encoded from its fields and the objects of every body round-tripped.
void verify_contents(std::span<const u8> decoded, const VerifyOptions& options, DataFileVerify& out,
                     const std::optional<ForgeError::DataFile>& data_file, ForgeVariant variant = {}) {
  out.decompressed_size = decoded.size();
  out.objects.size = decoded.size();
  // Read in place: the bodies are views, and the table is compared without them.
  auto file = view_data_file(decoded, variant);
  if (!file.ok()) {
    out.error = data_file ? message_under(file.status(), *data_file) : std::string(file.status().message());
    return;
  }
  out.entries = file->file.entries.size();
  if (!decoded.empty()) out.table_difference = skimmed_difference(file->file, decoded, file->runs, file->variant);
  std::size_t carved = 0;
  for (const BodyAt& body : body_layout(*file)) {
    VerifyReport r =
        verify_bytes(decoded.subspan(body.offset, body.size), options.game, options.json, {}, options.threads);
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
  // Skimmed: the blocks (or the plain data file) are views of the archive, never copied.
  std::vector<std::span<const u8>> runs;
  auto stored = read_stored(bytes, archive, index, &runs);
  if (!stored.ok()) {
    out.error = message_under(stored.status(), data_file_ref(archive, index));
    return out;
  }
  if (!stored->compressed && !runs.empty())
    if (auto s = check_plain(bytes, archive, archive.variant(), index, runs.back()); !s.ok()) {
      out.error = message_under(s, data_file_ref(archive, index));
      return out;
    }
  out.compression = compression_of(*stored);
  if (!stored->empty)
    if (auto d = skimmed_difference(*stored, bytes.subspan(at.stored_offset(), at.index.size), runs, stored->variant))
      out.stored_difference = at.stored_offset() + *d;
  auto decoded = decode(*stored, at.stored_offset(), checksums, runs);
  if (!decoded.ok()) {
    out.error = message_under(decoded.status(), data_file_ref(archive, index));
    return out;
  }
  out.checked_blocks = decoded->checked_blocks;
  verify_contents(decoded->bytes, options, out, data_file_ref(archive, index), archive.variant());
  if (options.recompress) recompress(*stored, runs, decoded->bytes, out);
  return out;
}

DataFileVerify verify_decompressed(std::span<const u8> decoded, const VerifyOptions& options) {
  DataFileVerify out;
  out.stored_size = decoded.size();
  verify_contents(decoded, options, out, std::nullopt);
  return out;
}

}  // namespace anvil::forge
