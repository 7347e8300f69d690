#include "pipeline/diff_run.hpp"

#include <absl/strings/str_format.h>

#include <utility>

#include "pipeline/game_folder.hpp"

namespace anvil {
namespace {

// The dialect A is read in (B's too): --game's, or the one `auto` picks in A, noted in `run`.
Game game_of(const DiffRequest& request, DiffRun& run) {
  if (request.game) return *request.game;
  const DiffSide& a = request.a;
  if (a.source.kind == SourceKind::data_file) {
    run.detected = detect_game(a.file->bytes(), a.source);
    return *run.detected;
  }
  run.detection = detect(a.file->bytes());
  return run.detection->game;
}

// Two level files, as diff has always compared them: the patch alone, or an error when they do not carve
// alike.
void diff_level_files(const DiffRequest& request, DiffRun& run) {
  const Game game = game_of(request, run);
  const Level la = carve_level(request.a.file->bytes(), game);
  const Level lb = carve_level(request.b.file->bytes(), game);
  run.a_no_objects = la.object_count() == 0;
  run.b_no_objects = lb.object_count() == 0;
  patch::DiffOutcome outcome = patch::diff_levels(la, lb);
  if (outcome.error) {
    run.status = absl::FailedPreconditionError(request.a.path + " and " + request.b.path + ": " + *outcome.error);
    return;
  }
  run.ops = std::move(outcome.ops);
}

// Two archives: their data files matched by name.
void diff_two_archives(const DiffRequest& request, DiffRun& run) {
  run.kind = "archives";
  auto compared = patch::diff_archives({*request.a.file, *request.a.archive}, {*request.b.file, *request.b.archive},
                                       request.a.archive_game);
  if (!compared.ok()) {
    run.status = compared.status();
    return;
  }
  run.diff = std::move(*compared);
  run.ops = run.diff.ops();
  run.differs = !run.diff.identical();
}

// Two files that are not archives, compared as data files are (docs/diff.md).
void diff_two_files(const DiffRequest& request, bool level_files, DiffRun& run) {
  run.kind = level_files ? "level files" : "data files";
  const DiffSide& a = request.a;
  const DiffSide& b = request.b;
  run.diff.game = game_of(request, run);
  run.diff.datafiles.push_back(
      patch::diff_data_files(a.file->bytes(), a.source, b.file->bytes(), b.source, run.diff.game));
  run.ops = run.diff.ops();
  // Two level files whose fields differ are a patch, as without --json.
  run.differs =
      level_files ? run.diff.datafiles[0].state == patch::DataFileState::changed_outside : !run.diff.identical();
}

}  // namespace

DiffRun diff_inputs(const DiffRequest& request) {
  DiffRun run;
  const DiffSide& a = request.a;
  const DiffSide& b = request.b;
  if ((a.archive != nullptr) != (b.archive != nullptr)) {
    const DiffSide& archive = a.archive ? a : b;
    const DiffSide& other = a.archive ? b : a;
    run.status = absl::InvalidArgumentError(
        absl::StrFormat("%s is a forge archive and %s a %s: diff compares two archives, or two level or data files "
                        "(extract the data file first: anvilrt extract)",
                        archive.path, other.path, source_kind_name(other.source.kind)));
    return run;
  }
  const bool level_files = a.source.kind == SourceKind::level_file && b.source.kind == SourceKind::level_file;
  if (level_files && !request.json)
    diff_level_files(request, run);
  else if (a.archive)
    diff_two_archives(request, run);
  else
    diff_two_files(request, level_files, run);
  return run;
}

absl::StatusOr<folder::FolderDiff> diff_game_folders(const std::string& a_path, const std::string& b_path,
                                                     std::optional<Game> game, bool json) {
  const bool a_folder = folder::is_folder(a_path);
  if (!a_folder || !folder::is_folder(b_path))
    return absl::InvalidArgumentError(
        absl::StrFormat("%s is a folder and %s is not: diff compares two game folders, or two files",
                        a_folder ? a_path : b_path, a_folder ? b_path : a_path));
  if (json)
    return absl::InvalidArgumentError(
        "--json compares two archives or two files; of two game folders diff prints the patch");
  return folder::diff_folders(a_path, b_path, game);
}

}  // namespace anvil
