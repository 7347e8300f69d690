#include "reader/forge/variant_resolver.hpp"

#include <utility>

#include "reader/forge/archive_game.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"

namespace anvil::forge {

absl::StatusOr<OpenedArchive> open_archive(std::span<const u8> bytes, const InputFile* file,
                                           const VariantChoice& choice) {
  auto tables = read_archive_tables(bytes, file);
  if (!tables.ok()) return tables.status();
  OpenedArchive out{std::move(*tables), choice.game};
  if (choice.layout) resolve_layout(out.archive, *choice.layout);
  if (choice.deferred) return out;
  if (!out.game)
    out.game = resolve_game(bytes, out.archive);
  else if (!out.archive.resolved())
    resolve_layout(out.archive, detect_layout(bytes, out.archive));
  return out;
}

const ArchiveChecksums& checksum_rule(std::span<const u8> bytes, const Archive& archive,
                                      const std::function<void(u64 offset, u64 size)>& done, unsigned threads) {
  return checksums_or_vote(archive, [&] { return archive_checksums(bytes, archive, done, threads); });
}

Game resolve_game(std::span<const u8> bytes, Archive& archive) {
  if (archive.resolved()) return detect_archive_game(bytes, archive);
  std::optional<LayoutEvidence> evidence;
  resolve_layout(archive, detect_layout(bytes, archive, &evidence));
  if (evidence) {
    const std::span<const u8> decoded = evidence->read.decoded.bytes;
    if (auto file = view_data_file(decoded, archive.variant()); file.ok())
      if (auto game = data_file_game(decoded, data_file_source(*file))) return *game;
  }
  return detect_archive_game(bytes, archive);  // the smallest data file did not decide: the next ones
}

}  // namespace anvil::forge
