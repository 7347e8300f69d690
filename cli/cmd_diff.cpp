// anvilrt diff A B [--json] [--game ac2|sws|auto] [-q] [-v]
// A and B are opened here and compared by pipeline/diff_run.hpp; what it reports is printed here.
#include <absl/status/status.h>
#include <absl/status/statusor.h>
#include <absl/strings/str_format.h>

#include <iostream>
#include <optional>
#include <string>

#include "cli/archive_input.hpp"
#include "cli/commands.hpp"
#include "model/counted.hpp"
#include "patch/archive_diff.hpp"
#include "patch/diff.hpp"
#include "pipeline/diff_run.hpp"
#include "pipeline/folder_diff.hpp"
#include "pipeline/game_folder.hpp"

namespace anvil::cli {
namespace {

// The line standard error gets for a data file that is not identical (`label` names it), or nothing.
std::string diff_line(const patch::DataFileDiff& d, const std::string& label, bool archives) {
  std::string line;
  switch (d.state) {
    case patch::DataFileState::identical:
      break;
    case patch::DataFileState::only_in_a:
    case patch::DataFileState::only_in_b:
      line = std::string(patch::state_name(d.state)) + " (anvilrt put --add and --remove carry it)";
      break;
    case patch::DataFileState::changed:
      line = absl::StrFormat("changed: %s, in the patch", counted(d.ops.size(), "field"));
      break;
    case patch::DataFileState::changed_outside: {
      // The object diff's reason, when it says more than the offset does.
      const std::string& reason = d.outside->reason;
      line = absl::StrFormat(
          "changed outside objects at data file offset 0x%x (%s%s): not in the patch; anvilrt put "
          "carries it (%s)",
          d.outside->offset, d.outside->where, reason.starts_with("opaque bytes differ") ? "" : "; " + reason,
          archives ? "extract the data file from B, put it into A" : "put B into the archive");
      break;
    }
    case patch::DataFileState::stored:
      line =
          "stored differently (the same decompressed bytes; compression, blocks or checksums differ): neither "
          "the patch nor anvilrt put carries it";
      break;
  }
  if (d.table_difference) {
    if (!line.empty()) line += "; ";
    line += absl::StrFormat(
        "its header or table entry differs at archive offset 0x%x: neither the patch nor anvilrt put carries it",
        *d.table_difference);
  }
  return line.empty() ? line : "anvilrt: " + label + ": " + line + "\n";
}

// Two game folders: their archives compared by file name (pipeline/folder_diff.hpp), the patch's pointers
// folder pointers.
int print_folder_diff(const absl::StatusOr<folder::FolderDiff>& diff, const std::string& a_path,
                      const std::string& b_path) {
  if (!diff.ok()) {
    error(std::string(diff.status().message()));
    return kBadInput;
  }
  for (const std::string& line : diff->recovered) std::cerr << "anvilrt: " << line << "\n";
  for (const std::string& name : diff->only_in_a)
    std::cerr << absl::StrFormat("archive %s: only in %s (a patch cannot carry a whole archive)\n", name, a_path);
  for (const std::string& name : diff->only_in_b)
    std::cerr << absl::StrFormat("archive %s: only in %s (a patch cannot carry a whole archive)\n", name, b_path);
  for (const folder::ArchivePairDiff& a : diff->archives)
    for (const patch::DataFileDiff& d : a.diff.datafiles)
      std::cerr << diff_line(d, "archive " + a.name + ", data file " + d.name, true);
  std::cout << patch::diff_to_patch_json(diff->ops());
  std::cout.flush();
  if (!std::cout) return kBadInput;
  return diff->identical() ? kOk : kDiffers;
}

// A side of the comparison as the pipeline takes it: views of the opened file and its tables.
DiffSide diff_side(OpenedInput& o) {
  DiffSide side;
  side.path = o.path;
  side.file = &*o.input;
  side.source = o.source;
  if (o.archive) {
    side.archive = &o.archive->archive;
    if (o.archive->game_known) side.archive_game = o.archive->game;
  }
  return side;
}

// The notes, warnings and lines of a comparison on stderr, then the patch or the document on stdout.
int print_diff(const DiffRun& run, const std::string& a_path, const std::string& b_path, bool archives, bool json,
               const std::string& game_option, const Common& common) {
  if (run.detection) std::cerr << detection_note(a_path, *run.detection, common);
  if (run.detected) std::cerr << data_file_game_note(a_path, *run.detected, common);
  if (run.a_no_objects) warn_no_objects(a_path, game_option);
  if (run.b_no_objects) warn_no_objects(b_path, game_option);
  if (!run.status.ok()) {
    error(std::string(run.status.message()));
    return absl::IsFailedPrecondition(run.status) ? kDiffers : kBadInput;
  }
  for (const patch::DataFileDiff& d : run.diff.datafiles)
    std::cerr << diff_line(d, archives ? "data file " + d.name : a_path + " and " + b_path, archives);
  std::cout << (json ? patch::archive_diff_json(run.diff, a_path, b_path, run.kind)
                     : patch::diff_to_patch_json(run.ops));
  std::cout.flush();
  if (!std::cout) return kBadInput;
  return run.differs ? kDiffers : kOk;
}

}  // namespace

// `anvilrt diff --help`.
constexpr const char* kDiffUsage =
    "usage: anvilrt diff A B [--json] [--game GAMES|auto] [-q] [-v]\n\n"
    "Prints a patch (docs/patches.md) that turns A into B: a test of the old value and a replace\n"
    "with the new one per changed field, in file order. `auto` picks the dialect from A (of archives:\n"
    "from A's first changed data file; each archive's layout, unless --layout names it, from its own).\n"
    "Two level files: exit 0: printed; 1: A and B do not carve into the same objects with the same\n"
    "opaque bytes.\n"
    "Two .forge archives: data files are matched by name (as ls shows it); the patch addresses\n"
    "/datafiles/NAME/objects/..., so that `anvilrt patch A PATCH -o C` gives C B's objects. A data file\n"
    "whose stored bytes, header and table entries are equal is not decompressed. Standard error gets one\n"
    "line per data file that is not identical: only in A, only in B, changed (its fields are in the\n"
    "patch), changed outside objects (where: the data file offset and the entry; not in the patch:\n"
    "anvilrt put carries it), stored differently (the same decompressed bytes), or a header or table\n"
    "entry that differs (its archive offset).\n"
    "Two decompressed data files: the patch addresses /objects/... as a patch of a data file does;\n"
    "standard error as for an archive's data file.\n"
    "Two game folders (docs/game-folders.md): their archives matched by file name, each pair as above;\n"
    "the patch addresses /archives/A.forge/datafiles/NAME/objects/..., so that `anvilrt patch DIR_A\n"
    "PATCH --in-place` gives DIR_A's archives DIR_B's objects; an archive in one folder only is said on\n"
    "standard error (exit 1). No --json.\n"
    "--json: one document with every data file's state, offsets and operations (docs/diff.md).\n"
    "Archives and data files: exit 0: identical; 1: they differ. Exit 2: bad input (or an archive\n"
    "compared with a file that is not one).";

int run_diff(int argc, char** argv) {
  std::string a_path, b_path, game_option;
  po::options_description options("options");
  add_game_option(options, game_option);
  options.add_options()("json", "print the whole comparison as one JSON document (docs/diff.md) instead of the patch")(
      "a", po::value(&a_path)->required(), "the original: a level file, a data file or a .forge archive")(
      "b", po::value(&b_path)->required(), "the edited file, of the same kind");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv, kDiffUsage, options, {{"a", "A"}, {"b", "B"}}, common, vm, code)) return code;
  if (!check_game_option(game_option)) return kBadInput;
  const bool json = vm.count("json") > 0;

  if (a_path == "-" && b_path == "-") {
    error("A and B cannot both be standard input (-)");
    return kBadInput;
  }
  const std::optional<Game> game = game_option == "auto" ? std::nullopt : parse_game(game_option);
  if (folder::is_folder(a_path) || folder::is_folder(b_path))
    return print_folder_diff(diff_game_folders(a_path, b_path, game, json), a_path, b_path);
  PathErrors path_errors;
  // An archive's layout and dialect are found from the data files that differ (none when none does).
  auto a = open_one(a_path, {.game = game_option, .detect_later = true}, common, path_errors);
  if (!a) return kBadInput;
  // B's objects are read in A's dialect.
  const std::string b_game =
      a->archive && a->archive->game_known ? std::string(game_name(a->archive->game)) : game_option;
  auto b = open_one(b_path, {.game = b_game, .detect_later = true}, common, path_errors);
  if (!b) return kBadInput;
  const DiffRun run = diff_inputs({diff_side(*a), diff_side(*b), game, json});
  return print_diff(run, a_path, b_path, a->archive.has_value(), json, game_option, common);
}

}  // namespace anvil::cli
