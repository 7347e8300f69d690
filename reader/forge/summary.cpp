#include "reader/forge/summary.hpp"

#include "model/dialect.hpp"
#include "model/forge/forge_error.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"

namespace anvil::forge {

namespace {

std::string rule_of(std::size_t checked_blocks, const ArchiveChecksums& checksums) {
  return checked_blocks == 0 ? "n/a" : checksums.verdict.name();
}

DataFileSummary table_fields(const Archive& archive, std::size_t index) {
  const DataFileAt& f = archive.files[index];
  DataFileSummary s;
  s.index = index;
  s.file_id = f.index.file_id.value;
  s.name = std::string(data_file_name(f));
  s.file_type = f.name.file_type.value;
  s.stored_size = f.index.size;
  return s;
}

}  // namespace

absl::StatusOr<DataFileSummary> summarize_tables(std::span<const u8> bytes, const Archive& archive, std::size_t index) {
  DataFileSummary s = table_fields(archive, index);
  std::vector<std::span<const u8>> runs;
  auto stored = read_stored(bytes, archive, index, &runs);
  if (!stored.ok()) return stored.status();
  s.compression = compression_of(*stored);
  if (!stored->compressed) {
    s.decompressed_size = runs.empty() ? 0 : runs.back().size();
    return s;
  }
  for (const SkimmedBlock& b : skimmed_blocks(*stored, runs)) {
    s.decompressed_size += b.decoded_size;
    s.checked_blocks += b.checksum.has_value();
  }
  return s;
}

absl::StatusOr<DataFileSummary> judged(DataFileSummary s, std::span<const u8> bytes, const Archive& archive,
                                       const ArchiveChecksums& checksums) {
  // The vote matched every block against the rule: a damaged data file is decompressed only to name
  // its first damaged block.
  if (checksums.damaged(s.index)) {
    auto read = read_data_file(bytes, archive, s.index, checksums.verdict);
    if (!read.ok()) return read.status();
    return ForgeError{.code = absl::StatusCode::kInternal,
                      .data_file = data_file_ref(archive, s.index),
                      .reason = "its blocks vote against the rule, yet all match it",
                      .rule = checksums.describe()}
        .status();
  }
  s.rule = rule_of(s.checked_blocks, checksums);
  return s;
}

absl::StatusOr<DataFileSummary> summarize(std::span<const u8> bytes, const Archive& archive, std::size_t index,
                                          bool objects, Game game, const ArchiveChecksums& checksums) {
  if (!objects) {
    auto s = summarize_tables(bytes, archive, index);
    if (!s.ok()) return s.status();
    return judged(std::move(*s), bytes, archive, checksums);
  }
  DataFileSummary s = table_fields(archive, index);
  auto read = read_data_file(bytes, archive, index, checksums.verdict);
  if (!read.ok()) return read.status();
  s.compression = compression_of(read->stored);
  s.decompressed_size = read->decoded.bytes.size();
  s.checked_blocks = read->decoded.checked_blocks;
  s.rule = rule_of(s.checked_blocks, checksums);
  auto file = view_data_file(read->decoded.bytes, archive.variant());
  if (!file.ok()) return with_data_file(file.status(), data_file_ref(archive, index));
  s.entries = file->file.entries.size();
  for (std::size_t e = 0; e < s.entries; ++e)
    carve_level(file->body(e), game, [&](const Piece&, const Object& o) { ++s.objects[std::string(class_name(o))]; });
  return s;
}

}  // namespace anvil::forge
