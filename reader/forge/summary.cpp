#include "reader/forge/summary.hpp"

#include "model/dialect.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"

namespace anvil::forge {

absl::StatusOr<DataFileSummary> summarize(std::span<const u8> bytes, const Archive& archive, std::size_t index,
                                          bool objects, Game game, const ArchiveChecksums& checksums) {
  const DataFileAt& f = archive.files[index];
  DataFileSummary s;
  s.index = index;
  s.file_id = f.index.file_id.value;
  s.name = std::string(data_file_name(f));
  s.file_type = f.name.file_type;
  s.stored_size = f.index.size;
  auto rule_of = [&](std::size_t checked_blocks) -> std::string {
    return checked_blocks == 0 ? "n/a" : checksums.verdict.name();
  };
  // The vote matched every block against the rule: a damaged data file is decompressed only to name
  // its first damaged block.
  if (objects || checksums.damaged(index)) {
    auto read = read_data_file(bytes, archive, index, checksums.verdict);
    if (!read.ok()) return read.status();
    if (!objects)
      return absl::InternalError(data_file_label(archive, index) +
                                 ": its blocks vote against the rule, yet all match it");
    s.compression = compression_of(read->stored);
    s.decompressed_size = read->decoded.bytes.size();
    s.rule = rule_of(read->decoded.checked_blocks);
    auto file = view_data_file(read->decoded.bytes);
    if (!file.ok())
      return absl::InvalidArgumentError(data_file_label(archive, index) + ": " + std::string(file.status().message()));
    s.entries = file->file.entries.size();
    for (std::size_t e = 0; e < s.entries; ++e)
      carve_level(file->body(e), game, [&](const Piece&, const Object& o) { ++s.objects[std::string(class_name(o))]; });
    return s;
  }
  std::vector<std::span<const u8>> runs;
  auto stored = read_stored(bytes, archive, index, &runs);
  if (!stored.ok()) return stored.status();
  s.compression = compression_of(*stored);
  if (!stored->compressed) {
    s.decompressed_size = runs.empty() ? 0 : runs.back().size();
    s.rule = rule_of(0);
    return s;
  }
  std::size_t checked = 0;
  for (const SkimmedBlock& b : skimmed_blocks(*stored, runs)) {
    s.decompressed_size += b.decoded_size;
    checked += b.checksum.has_value();
  }
  s.rule = rule_of(checked);
  return s;
}

}  // namespace anvil::forge
