#include "pipeline/archive_patch_output.hpp"

#include <absl/strings/str_format.h>

#include <algorithm>

#include "model/forge/forge_error.hpp"
#include "pipeline/data_file_patch.hpp"
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
    // An object that changed size shifts the rest of its data file (FORGE.md 5).
    const bool resized = patch::resizes(**level, d.result);
    DataFileChange change{set.archive_index(d.datafile), {}};
    if (resized) {
      auto bytes = patch::patched_data_file(**level, d.result, set.archive().variant());
      if (!bytes.ok())
        return absl::Status(bytes.status().code(),
                            absl::StrFormat("data file %s: %s", set.name(d.datafile), bytes.status().message()));
      change.decoded = std::move(*bytes);
    } else {
      change.decoded = patch::patched_bytes(**level, d.result);
    }
    if (auto why = resized ? patch::check_patched_data_file(**level, d.result, change.decoded, set.archive().variant())
                           : patch::check_written(**level, d.result, change.decoded))
      return absl::InternalError(absl::StrFormat(
          "data file %s: the patched bytes do not read back as the patched model: %s", set.name(d.datafile), *why));
    set.release(d.datafile);
    changes.push_back(std::move(change));
  }
  // A data file a mod replaced whole, and no operation edited: its new bytes as they are.
  for (const std::size_t i : set.replaced()) {
    const std::size_t index = set.archive_index(i);
    if (std::any_of(changes.begin(), changes.end(), [&](const DataFileChange& c) { return c.index == index; }))
      continue;
    auto bytes = set.bytes_of(i);
    if (!bytes.ok()) return bytes.status();
    changes.push_back({index, std::vector<u8>(bytes->begin(), bytes->end())});
    set.release(i);
  }
  std::sort(changes.begin(), changes.end(),
            [](const DataFileChange& a, const DataFileChange& b) { return a.index < b.index; });
  return changes;
}

absl::StatusOr<std::vector<ChangeReport>> write_patched_archive(std::span<const u8> bytes, ArchiveLevels& set,
                                                                const patch::ArchivePatchOutcome& outcome,
                                                                const std::string& target,
                                                                const platform::OutputOptions& options,
                                                                const InputFile* input) {
  auto changes = patched_data_files(set, outcome);
  // A data file that does not read is the archive's fault: named by it.
  if (!changes.ok() && input) return with_archive(changes.status(), input->path());
  if (!changes.ok()) return changes.status();
  return rewrite_file(bytes, *changes, target, options, input, &set.checksums().verdict,
                      set.archive().variant().layout);
}

}  // namespace anvil::forge
