#include "reader/forge/summary.hpp"

#include "reader/forge/data_files.hpp"

namespace anvil::forge {

absl::StatusOr<DataFileSummary> summarize(std::span<const u8> bytes, const Archive& archive, std::size_t index,
                                          bool objects, Game game) {
  const DataFileAt& f = archive.files[index];
  DataFileSummary s;
  s.index = index;
  s.file_id = f.index.file_id.value;
  s.name = std::string(data_file_name(f));
  s.file_type = f.name.file_type;
  s.stored_size = f.index.size;
  auto stored = read_stored(bytes, archive, index);
  if (!stored.ok()) return stored.status();
  s.compression = compression_of(*stored);
  s.decompressed_size = claimed_size(*stored);
  s.rules = stored_rules(*stored, s.checked_blocks);
  if (s.checked_blocks == 0 || s.rules != 0) {
    if (!objects) return s;
  }
  auto read = read_data_file(bytes, archive, index);
  if (!read.ok()) return read.status();
  s.rules = read->decoded.rules;
  s.checked_blocks = read->decoded.checked_blocks;
  if (!objects) return s;
  auto file = parse_data_file(read->decoded.bytes);
  if (!file.ok())
    return absl::InvalidArgumentError(data_file_label(archive, index) + ": " + std::string(file.status().message()));
  s.entries = file->entries.size();
  for (const Entry& e : file->entries)
    carve_level(e.body.bytes, game, [&](const Piece&, const Object& o) { ++s.objects[std::string(class_name(o))]; });
  return s;
}

}  // namespace anvil::forge
