// A level set after patches, for a picture of what they change (`anvilrt map --patch`): each patch applied
// in turn, as `anvilrt patch` applies it to the file the patches before it wrote: to a level file or a lone
// data file by the single-level engine (patch/patch.hpp), to an archive's data files as one document
// (patch/archive_patch.hpp), to a game folder's as the folder's document (pipeline/folder_patch.hpp: the
// folder engine reads the archives themselves, so there the patches so far are applied as one, their
// operations in order). Each edited data file is replaced by its patched bytes
// (an object of a data file may change size: pipeline/data_file_patch.hpp), carved again when asked for; nothing is
// written.
#pragma once

#include <absl/status/status.h>
#include <rapidjson/document.h>

#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/forge/variant.hpp"
#include "reader/level_set.hpp"

namespace anvil::view {

class FolderLevelSet;

class PatchedLevels final : public LevelSet {
 public:
  // `base` (which must outlive this) unchanged so far. `variant`: the archive's, or a lone data file's
  // (FORGE.md 7), the form a patched data file is read back in.
  PatchedLevels(LevelSet& base, forge::ForgeVariant variant) : base_(base), variant_(variant) {}
  // A game folder's data files, patched as the folder's document.
  explicit PatchedLevels(FolderLevelSet& folder);

  // Applies one patch (`text`, named `patch_name` in errors) to the set as it is now. `archive`: the set is
  // an archive's data files, patched as one document; otherwise it holds one level file or data file.
  // Errors are the line `anvilrt patch` prints ("PATCH: op 3 (…): reason", or "INPUT: reason" for a data
  // file that does not read); a `test` that failed or a bulk operation that matched nothing is
  // FailedPrecondition (its exit status 1), anything else InvalidArgument. `archive` is not read for a
  // folder's set.
  absl::Status apply(std::string_view text, const std::string& patch_name, bool archive, const std::string& input);

  // The data files some patch edited.
  const std::vector<bool>& changed() const { return changed_; }

  Game game() const override { return base_.game(); }
  std::size_t size() const override { return base_.size(); }
  const std::string& name(std::size_t i) const override { return base_.name(i); }
  std::vector<std::size_t> select(std::string_view selector) const override { return base_.select(selector); }
  absl::StatusOr<const Level*> level(std::size_t i) override;
  void release(std::size_t i) override;
  absl::StatusOr<std::span<const u8>> bytes_of(std::size_t i) override;

 private:
  struct Patched {
    std::vector<u8> bytes;
    bool data_file = false;  // carved in its bodies (else whole, a level file)
    forge::ForgeVariant variant;
    std::unique_ptr<Level> level;
  };
  // Data file i edited to `bytes`; `like` is how it was carved.
  void replace(std::size_t i, const Level& like, std::vector<u8> bytes);
  forge::ForgeVariant variant(std::size_t i) const;
  absl::Status apply_to_folder(std::string_view text, const std::string& patch_name, const std::string& input);

  LevelSet& base_;
  forge::ForgeVariant variant_;
  FolderLevelSet* folder_ = nullptr;
  // A folder's patches so far: every operation in order, and where each patch's first is.
  struct FolderPatch {
    std::string name;
    std::size_t first_op = 0;
  };
  std::vector<FolderPatch> folder_patches_;
  rapidjson::Document folder_ops_{rapidjson::kArrayType};
  std::map<std::size_t, Patched> patched_;
  std::vector<bool> changed_ = std::vector<bool>(base_.size(), false);
};

}  // namespace anvil::view
