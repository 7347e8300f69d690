#include "pipeline/folder_patch_run.hpp"

#include <absl/strings/str_cat.h>

#include <filesystem>
#include <optional>
#include <utility>

#include "pipeline/folder_output.hpp"
#include "pipeline/folder_transaction.hpp"

namespace anvil::folder {

namespace fs = std::filesystem;

namespace {

// OUTDIR for `-o`: a new folder, or an empty one (anvilrt's own state folder aside), made if missing.
absl::Status prepare_out_dir(const std::string& dir, const std::string& out) {
  std::error_code ec;
  if (fs::exists(out, ec)) {
    if (!fs::is_directory(out, ec)) return absl::InvalidArgumentError(absl::StrCat(out, ": not a folder"));
    std::error_code same;
    if (fs::equivalent(dir, out, same))
      return absl::InvalidArgumentError(absl::StrCat(out, ": is the game folder ", dir, " itself: give --in-place"));
    for (fs::directory_iterator it(out, ec), end; !ec && it != end; it.increment(ec))
      if (it->path().filename() != kStateFolder)
        return absl::InvalidArgumentError(
            absl::StrCat(out, ": not empty (-o makes a new folder of the patched archives)"));
    return absl::OkStatus();
  }
  fs::create_directories(out, ec);
  if (ec) return absl::InternalError(absl::StrCat(out, ": cannot make the folder: ", ec.message()));
  return absl::OkStatus();
}

// The transaction that writes the patched folder: in DIR itself (opened for a change, its lock taken), or in
// OUTDIR, made or checked, then opened for a change through the same door.
absl::StatusOr<FolderTransaction> begin_writing(const FolderPatchRequest& request, GameFolder& folder,
                                                FolderPatchRun& run) {
  if (request.out_dir.empty()) return FolderTransaction::begin(folder.dir, folder.take_lock(), request.intent);
  if (auto s = prepare_out_dir(request.dir, request.out_dir); !s.ok()) return s;
  auto out = open_game_folder(request.out_dir, {.use = FolderUse::change, .archives_required = false});
  if (!out.ok()) return out.status();
  if (!out->recovered.empty()) run.recovered.push_back(out->recovered);
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
  if (!request.dry_run) {
    auto begun = begin_writing(request, *folder, run);
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
  return run;
}

}  // namespace anvil::folder
