#include "view/patched_levels.hpp"

#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include "patch/archive_patch.hpp"
#include "patch/patch.hpp"
#include "pipeline/data_file_patch.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/level_source.hpp"

namespace anvil::view {
namespace {

absl::Status patch_error(const patch::PatchError& e, const std::string& patch_name, const std::string& input) {
  std::string line = e.input_fault ? absl::StrFormat("%s: %s (needed by op %d (%s) of %s)", input, e.reason, e.op_index,
                                                     e.pointer, patch_name)
                                   : absl::StrCat(patch_name, ": ", e.message());
  return e.exit_code == patch::kTestFailed ? absl::FailedPreconditionError(line) : absl::InvalidArgumentError(line);
}

}  // namespace

absl::StatusOr<const Level*> PatchedLevels::level(std::size_t i) {
  auto it = patched_.find(i);
  if (it == patched_.end()) return base_.level(i);
  Patched& p = it->second;
  if (!p.level) {
    if (!p.data_file) {
      p.level = std::make_unique<Level>(carve_level(p.bytes, game()));
    } else {
      auto view = forge::view_data_file(p.bytes, variant_);
      if (!view.ok())  // the patch engine's output always reads back (pipeline/data_file_patch.hpp checks it)
        return absl::InternalError(
            absl::StrCat(name(i), ": the patched data file does not read: ", view.status().message()));
      p.level = std::make_unique<Level>(carve_source(p.bytes, data_file_source(*view), game()));
    }
  }
  return p.level.get();
}

void PatchedLevels::release(std::size_t i) {
  auto it = patched_.find(i);
  if (it == patched_.end())
    base_.release(i);
  else
    it->second.level.reset();
}

absl::StatusOr<std::span<const u8>> PatchedLevels::bytes_of(std::size_t i) {
  auto it = patched_.find(i);
  if (it == patched_.end()) return base_.bytes_of(i);
  return std::span<const u8>(it->second.bytes);
}

void PatchedLevels::replace(std::size_t i, const Level& like, std::vector<u8> bytes) {
  Patched p{std::move(bytes), !like.regions.empty(), nullptr};
  if (patched_.find(i) == patched_.end()) base_.release(i);
  patched_[i] = std::move(p);
  changed_[i] = true;
}

absl::Status PatchedLevels::apply(std::string_view text, const std::string& patch_name, bool archive,
                                  const std::string& input) {
  // Each edited data file's new bytes, as `anvilrt patch` writes them (the objects' encodings in place, or,
  // when one changed size inside a data file, the data file rebuilt around it).
  auto patched_bytes = [&](const Level& level, const patch::PatchResult& result) -> absl::StatusOr<std::vector<u8>> {
    if (!level.regions.empty() && patch::resizes(level, result))
      return patch::patched_data_file(level, result, variant_);
    return patch::patched_bytes(level, result);
  };
  if (!archive) {
    auto level = this->level(0);
    if (!level.ok()) return level.status();
    patch::PatchOutcome outcome = patch::apply_patch_text(**level, text);
    if (outcome.error) return patch_error(*outcome.error, patch_name, input);
    if (outcome.result.edited.empty()) return absl::OkStatus();
    auto bytes = patched_bytes(**level, outcome.result);
    if (!bytes.ok()) return absl::InvalidArgumentError(absl::StrCat(input, ": ", bytes.status().message()));
    replace(0, **level, std::move(*bytes));
    return absl::OkStatus();
  }
  patch::ArchivePatchOutcome outcome = patch::apply_archive_patch_text(*this, text);
  if (outcome.error) return patch_error(*outcome.error, patch_name, input);
  for (const patch::DataFilePatch& d : outcome.datafiles) {
    if (d.result.edited.empty()) continue;
    auto level = this->level(d.datafile);
    if (!level.ok()) return absl::InvalidArgumentError(absl::StrCat(input, ": ", level.status().message()));
    auto bytes = patched_bytes(**level, d.result);
    if (!bytes.ok())
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: data file %s: %s", input, name(d.datafile), bytes.status().message()));
    replace(d.datafile, **level, std::move(*bytes));
  }
  return absl::OkStatus();
}

}  // namespace anvil::view
