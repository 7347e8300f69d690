#include "reader/forge/summary.hpp"

#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include <algorithm>

#include "codec/forge_compression.hpp"
#include "codec/lzo.hpp"
#include "model/dialect.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"

namespace anvil::forge {
namespace {

// The rules the first checksummed block matches: over its stored bytes, and decompressed only when none
// of those holds. Errors are the reason alone.
absl::StatusOr<ChecksumRules> first_block_rules(const StoredDataFile& stored, const SkimmedBlock& first) {
  ChecksumRules rules = rules_matching(*first.checksum, first.stored, {}) & kStoredRules;
  if (rules != 0) return rules;
  if (first.plain) return rules_matching(*first.checksum, first.stored, first.stored);
  if (first.decoded_size > codec::max_decompressed_size(first.stored.size()))
    return absl::InvalidArgumentError(
        absl::StrFormat("its first block's %d compressed bytes cannot decompress to the %d claimed",
                        first.stored.size(), first.decoded_size));
  std::vector<u8> decoded(first.decoded_size);
  const auto compression = compression_of(stored.first->compression).value_or(Compression::lzo1x);
  if (auto s = codec::decompress_into(codec::algorithm_of(compression), first.stored, decoded); !s.ok())
    return absl::InvalidArgumentError(absl::StrCat("its first block: ", s.message()));
  return rules_matching(*first.checksum, first.stored, decoded);
}

}  // namespace

absl::StatusOr<DataFileSummary> summarize(std::span<const u8> bytes, const Archive& archive, std::size_t index,
                                          bool objects, Game game) {
  const DataFileAt& f = archive.files[index];
  DataFileSummary s;
  s.index = index;
  s.file_id = f.index.file_id.value;
  s.name = std::string(data_file_name(f));
  s.file_type = f.name.file_type;
  s.stored_size = f.index.size;
  if (!objects) {
    std::vector<std::span<const u8>> runs;
    auto stored = read_stored(bytes, archive, index, &runs);
    if (!stored.ok()) return stored.status();
    s.compression = compression_of(*stored);
    if (!stored->compressed) {
      s.decompressed_size = runs.empty() ? 0 : runs.back().size();
      s.checked_blocks = 0;
      return s;
    }
    std::vector<SkimmedBlock> blocks = skimmed_blocks(*stored, runs);
    for (const SkimmedBlock& b : blocks) s.decompressed_size += b.decoded_size;
    auto first =
        std::find_if(blocks.begin(), blocks.end(), [](const SkimmedBlock& b) { return b.checksum.has_value(); });
    if (first == blocks.end()) return s;
    auto rules = first_block_rules(*stored, *first);
    if (!rules.ok())
      return error_at(static_cast<u64>(first->stored.data() - bytes.data()),
                      data_file_label(archive, index) + ": " + std::string(rules.status().message()));
    s.rules = *rules;
    s.checked_blocks = 1;
    return s;
  }
  auto read = read_data_file(bytes, archive, index);
  if (!read.ok()) return read.status();
  s.compression = compression_of(read->stored);
  s.decompressed_size = read->decoded.bytes.size();
  s.rules = read->decoded.rules;
  s.checked_blocks = read->decoded.checked_blocks;
  auto file = view_data_file(read->decoded.bytes);
  if (!file.ok())
    return absl::InvalidArgumentError(data_file_label(archive, index) + ": " + std::string(file.status().message()));
  s.entries = file->file.entries.size();
  for (std::size_t e = 0; e < s.entries; ++e)
    carve_level(file->body(e), game, [&](const Piece&, const Object& o) { ++s.objects[std::string(class_name(o))]; });
  return s;
}

}  // namespace anvil::forge
