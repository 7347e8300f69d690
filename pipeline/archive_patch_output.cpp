#include "pipeline/archive_patch_output.hpp"

#include <absl/strings/str_format.h>

#include "pipeline/patch_output.hpp"
#include "reader/input_file.hpp"
#include "reader/level_source.hpp"

namespace anvil::forge {

absl::StatusOr<std::vector<DataFileChange>> patched_data_files(ArchiveLevels& set,
                                                               const patch::ArchivePatchOutcome& outcome) {
  std::vector<DataFileChange> changes;
  for (const patch::DataFilePatch& d : outcome.datafiles) {
    if (d.result.edited.empty()) continue;
    auto level = set.level(d.datafile);
    if (!level.ok()) return level.status();
    DataFileChange change{set.archive_index(d.datafile), patch::patched_bytes(**level, d.result)};
    if (auto why = patch::check_written(**level, d.result, change.decoded))
      return absl::InternalError(absl::StrFormat(
          "data file %s: the patched bytes do not read back as the patched model: %s", set.name(d.datafile), *why));
    set.release(d.datafile);
    changes.push_back(std::move(change));
  }
  std::sort(changes.begin(), changes.end(),
            [](const DataFileChange& a, const DataFileChange& b) { return a.index < b.index; });
  return changes;
}

absl::StatusOr<std::vector<ChangeReport>> write_patched_archive(std::span<const u8> bytes, ArchiveLevels& set,
                                                                const patch::ArchivePatchOutcome& outcome,
                                                                const std::string& target, const OutputOptions& options,
                                                                const InputFile* input) {
  auto changes = patched_data_files(set, outcome);
  // A data file that does not read is the archive's fault: named by it.
  if (!changes.ok() && input)
    return absl::Status(changes.status().code(), input->path() + ": " + std::string(changes.status().message()));
  if (!changes.ok()) return changes.status();
  return rewrite_file(bytes, *changes, target, options, input);
}

Game detect_archive_game(std::span<const u8> bytes, const Archive& archive) {
  ArchiveLevels set(bytes, archive, Game::ac2);
  for (std::size_t i = 0; i < set.size(); ++i) {
    auto data = set.decompressed(i);
    if (!data.ok()) continue;  // the command that reads it says why
    Source source{SourceKind::data_file, (*data)->entries, (*data)->regions};
    std::size_t ac2 = carved_bytes((*data)->bytes, source, Game::ac2);
    std::size_t sws = carved_bytes((*data)->bytes, source, Game::sws);
    set.release(i);
    if (ac2 != sws) return ac2 > sws ? Game::ac2 : Game::sws;
  }
  return Game::ac2;
}

}  // namespace anvil::forge
