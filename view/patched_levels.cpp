#include "view/patched_levels.hpp"

#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>
#include <rapidjson/document.h>

#include "patch/archive_patch.hpp"
#include "patch/patch.hpp"
#include "pipeline/data_file_patch.hpp"
#include "pipeline/folder_patch.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/level_source.hpp"
#include "view/folder_level_set.hpp"

namespace anvil::view {
namespace {

// A data file's new bytes, as `anvilrt patch` writes them (the objects' encodings in place, or, when one
// changed size inside a data file, the data file rebuilt around it).
absl::StatusOr<std::vector<u8>> patched_bytes(const Level& level, const patch::PatchResult& result,
                                              forge::ForgeVariant variant) {
  if (!level.regions.empty() && patch::resizes(level, result)) return patch::patched_data_file(level, result, variant);
  return patch::patched_bytes(level, result);
}

absl::Status patch_error(const patch::PatchError& e, const std::string& patch_name, const std::string& input) {
  const std::string line = e.line(patch_name, input);
  return e.exit_code == patch::kTestFailed ? absl::FailedPreconditionError(line) : absl::InvalidArgumentError(line);
}

}  // namespace

PatchedLevels::PatchedLevels(FolderLevelSet& folder) : base_(folder), folder_(&folder) {}

forge::ForgeVariant PatchedLevels::variant(std::size_t i) const { return folder_ ? folder_->variant(i) : variant_; }

absl::StatusOr<const Level*> PatchedLevels::level(std::size_t i) {
  auto it = patched_.find(i);
  if (it == patched_.end()) return base_.level(i);
  Patched& p = it->second;
  if (!p.level) {
    if (!p.data_file) {
      p.level = std::make_unique<Level>(carve_level(p.bytes, game()));
    } else {
      auto view = forge::view_data_file(p.bytes, p.variant);
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
  Patched p{std::move(bytes), !like.regions.empty(), variant(i), nullptr};
  if (patched_.find(i) == patched_.end()) base_.release(i);
  patched_[i] = std::move(p);
  changed_[i] = true;
}

absl::Status PatchedLevels::apply(std::string_view text, const std::string& patch_name, bool archive,
                                  const std::string& input) {
  if (folder_) return apply_to_folder(text, patch_name, input);
  if (!archive) {
    auto level = this->level(0);
    if (!level.ok()) return level.status();
    patch::PatchOutcome outcome = patch::apply_patch_text(**level, text);
    if (outcome.error) return patch_error(*outcome.error, patch_name, input);
    if (outcome.result.edited.empty()) return absl::OkStatus();
    auto bytes = patched_bytes(**level, outcome.result, variant_);
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
    auto bytes = patched_bytes(**level, d.result, variant_);
    if (!bytes.ok())
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: data file %s: %s", input, name(d.datafile), bytes.status().message()));
    replace(d.datafile, **level, std::move(*bytes));
  }
  return absl::OkStatus();
}

}  // namespace anvil::view

namespace anvil::view {

absl::Status PatchedLevels::apply_to_folder(std::string_view text, const std::string& patch_name,
                                            const std::string& input) {
  // The folder engine reads the archives themselves, not this set: the patches so far are applied to the
  // folder as one, their operations in order, which is what applying them one after another gives.
  rapidjson::Document doc;
  if (auto error = patch::parse_patch_text(text, doc)) return patch_error(*error, patch_name, input);
  if (auto error = patch::check_patch_shape(doc)) return patch_error(*error, patch_name, input);
  folder_patches_.push_back({patch_name, folder_ops_.Size()});
  for (const rapidjson::Value& op : doc.GetArray())
    folder_ops_.PushBack(rapidjson::Value(op, folder_ops_.GetAllocator()), folder_ops_.GetAllocator());
  folder::FolderPatchOutcome outcome = folder::apply_folder_patch(folder_->folder(), folder_ops_);
  if (outcome.error) {
    // Named by the patch that holds the failing operation, with its index there.
    patch::PatchError e = *outcome.error;
    auto holder = folder_patches_.end() - 1;
    if (e.op_index != patch::PatchError::kWholePatch)
      while (holder != folder_patches_.begin() && holder->first_op > e.op_index) --holder;
    if (e.op_index != patch::PatchError::kWholePatch) e.op_index -= holder->first_op;
    return patch_error(e, holder->name, input);
  }
  // The data files the patches before edited are edited again, from the folder's own bytes.
  for (auto& [i, p] : patched_) changed_[i] = false;
  patched_.clear();
  for (const folder::ArchivePatch& a : outcome.archives)
    for (const patch::DataFilePatch& d : a.outcome.datafiles) {
      if (d.result.edited.empty()) continue;
      const std::optional<std::size_t> i = folder_->member(a.archive, d.datafile);
      if (!i)
        return absl::InternalError(absl::StrCat(input, ": the patch edited a data file the folder does not list"));
      auto level = this->level(*i);
      if (!level.ok()) return absl::InvalidArgumentError(absl::StrCat(input, ": ", level.status().message()));
      auto bytes = patched_bytes(**level, d.result, variant(*i));
      if (!bytes.ok())
        return absl::InvalidArgumentError(
            absl::StrFormat("%s: data file %s: %s", input, name(*i), bytes.status().message()));
      replace(*i, **level, std::move(*bytes));
    }
  return absl::OkStatus();
}

}  // namespace anvil::view
