#include "pipeline/folder_patch_run.hpp"

#include <absl/strings/str_cat.h>

#include <cstdint>
#include <filesystem>
#include <optional>
#include <utility>

#include "pipeline/folder_output.hpp"
#include "pipeline/folder_transaction.hpp"
#include "platform/folder_at_name.hpp"
#include "platform/paths.hpp"
#include "platform/random.hpp"

namespace anvil::folder {

namespace fs = std::filesystem;

namespace {

// OUTDIR for `-o`: a new name, or an empty folder; its parent made if missing. Nothing at the name is
// followed: a link there is refused (and one put there after this check is refused by put_folder_at).
absl::Status check_out_dir(const std::string& dir, const std::string& out) {
  const fs::path path = platform::path_of(out);
  std::error_code ec;
  const fs::file_status status = fs::symlink_status(path, ec);
  if (fs::is_symlink(status))
    return absl::InvalidArgumentError(absl::StrCat(out, ": is a link: the copy is not written through it"));
  if (fs::exists(status)) {
    if (!fs::is_directory(status)) return absl::InvalidArgumentError(absl::StrCat(out, ": not a folder"));
    std::error_code same;
    if (fs::equivalent(platform::path_of(dir), path, same))
      return absl::InvalidArgumentError(absl::StrCat(out, ": is the game folder ", dir, " itself: give --in-place"));
    if (!fs::is_empty(path, ec) || ec)
      return absl::InvalidArgumentError(
          absl::StrCat(out, ": not empty (-o makes a new folder of the patched archives)"));
    return absl::OkStatus();
  }
  const fs::path parent = fs::absolute(path, ec).parent_path();
  fs::create_directories(parent, ec);
  if (ec) return absl::InternalError(absl::StrCat(out, ": cannot make its folder: ", ec.message()));
  return absl::OkStatus();
}

// The new folder OUTDIR is made and written under a name of its own beside it, ".NAME.anvilrt-copy-XXXXXXXX",
// then put at its name in one rename (platform/folder_at_name.hpp): no write goes through OUTDIR's name, so
// a link swapped in there is never written through. Removed whatever happens, unless put in place.
struct CopyStage {
  std::string path;
  CopyStage() = default;
  CopyStage(const CopyStage&) = delete;
  CopyStage& operator=(const CopyStage&) = delete;
  ~CopyStage() {
    std::error_code ec;
    if (!path.empty()) fs::remove_all(platform::path_of(path), ec);  // links inside are removed, not followed
  }
};

absl::Status make_stage(const std::string& out, CopyStage& stage) {
  auto random = platform::secure_random_bytes(4);
  if (!random.ok()) return random.status();
  std::string suffix;
  for (std::uint8_t b : *random) absl::StrAppend(&suffix, absl::Hex(b, absl::kZeroPad2));
  fs::path path = fs::absolute(platform::path_of(out)).lexically_normal();
  if (!path.has_filename()) path = path.parent_path();
  const fs::path made =
      path.parent_path() / platform::path_of("." + platform::utf8_of(path.filename()) + ".anvilrt-copy-" + suffix);
  std::error_code ec;
  if (!fs::create_directory(made, ec) || ec)
    return absl::InternalError(absl::StrCat(
        platform::utf8_of(made), ": cannot make the folder: ", ec ? ec.message() : std::string("something is there")));
  stage.path = platform::utf8_of(made);
  return absl::OkStatus();
}

// The transaction that writes the patched folder: in DIR itself (opened for a change, its lock taken), or in
// OUTDIR's stage, made, then opened for a change through the same door.
absl::StatusOr<FolderTransaction> begin_writing(const FolderPatchRequest& request, GameFolder& folder,
                                                CopyStage& stage) {
  if (request.out_dir.empty()) return FolderTransaction::begin(folder.dir, folder.take_lock(), request.intent);
  if (auto s = check_out_dir(request.dir, request.out_dir); !s.ok()) return s;
  if (auto s = make_stage(request.out_dir, stage); !s.ok()) return s;
  auto out = open_game_folder(stage.path, {.use = FolderUse::change, .archives_required = false});
  if (!out.ok()) return out.status();
  return FolderTransaction::begin(out->dir, out->take_lock(), request.intent);
}

}  // namespace

FolderPatchRun patch_folder(const FolderPatchRequest& request, std::string_view patch_json) {
  FolderPatchRun run;
  const bool in_place = request.out_dir.empty();
  // In place, the lock is taken before anything is read: a second process waits, then reads what the
  // first wrote. A folder that is not a game folder is refused before anything (the lock's folder) is made
  // in it.
  auto folder =
      open_game_folder(request.dir, {.use = in_place && !request.dry_run ? FolderUse::change : FolderUse::read});
  if (!folder.ok()) {
    run.status = folder.status();
    return run;
  }
  if (!folder->recovered.empty()) run.recovered.push_back(folder->recovered);
  std::optional<FolderTransaction> txn;
  CopyStage stage;
  if (!request.dry_run) {
    auto begun = begin_writing(request, *folder, stage);
    if (!begun.ok()) {
      run.status = begun.status();
      return run;
    }
    txn.emplace(std::move(*begun));
  }
  run.archives = folder->archives;
  std::optional<FolderLevels> levels(std::in_place, std::move(*folder), request.options);
  patch::PatchOptions options;
  options.record_changes = request.dry_run;
  run.outcome = apply_folder_patch_text(*levels, patch_json, options);
  if (run.outcome.error || request.dry_run) return run;
  run.status = stage_patched_folder(*levels, run.outcome, *txn, !in_place);
  if (!run.status.ok()) return run;
  // The archives closed (unmapped) before they are replaced: Windows renames no file over a mapped one.
  levels.reset();
  run.status = txn->commit();
  if (!run.status.ok() || in_place) return run;
  txn.reset();  // its lock let go: Windows renames no folder with a file open in it
  run.status = platform::put_folder_at(stage.path, request.out_dir);
  if (run.status.ok()) stage.path.clear();
  return run;
}

}  // namespace anvil::folder
