// anvilrt diff A B [--json] [--game ac2|sws|auto] [-q] [-v]
#include <absl/strings/str_format.h>

#include <iostream>

#include "cli/archive_input.hpp"
#include "cli/commands.hpp"
#include "model/counted.hpp"
#include "patch/archive_diff.hpp"
#include "patch/diff.hpp"
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

// Two level files, as diff has always compared them: the patch, or exit 1 when they do not carve alike.
int diff_level_files(const OpenedInput& a, const OpenedInput& b, const std::string& game_option, const Common& common) {
  Game game = resolve_game(game_option, a.input->bytes(), a.path, common);
  Level la = carve_level(a.input->bytes(), game);
  Level lb = carve_level(b.input->bytes(), game);
  if (la.object_count() == 0) warn_no_objects(a.path, game_option);
  if (lb.object_count() == 0) warn_no_objects(b.path, game_option);
  patch::DiffOutcome outcome = patch::diff_levels(la, lb);
  if (outcome.error) {
    error(a.path + " and " + b.path + ": " + *outcome.error);
    return kDiffers;
  }
  std::cout << patch::diff_to_patch_json(outcome.ops);
  std::cout.flush();
  return std::cout ? kOk : kBadInput;
}

// Two game folders: their archives compared by file name (pipeline/folder_diff.hpp), the patch's pointers
// folder pointers.
int diff_game_folders(const std::string& a_path, const std::string& b_path, const std::string& game_option, bool json) {
  if (!folder::is_folder(a_path) || !folder::is_folder(b_path)) {
    error(absl::StrFormat("%s is a folder and %s is not: diff compares two game folders, or two files",
                          folder::is_folder(a_path) ? a_path : b_path, folder::is_folder(a_path) ? b_path : a_path));
    return kBadInput;
  }
  if (json) {
    error("--json compares two archives or two files; of two game folders diff prints the patch");
    return kBadInput;
  }
  auto diff = folder::diff_folders(a_path, b_path,
                                   game_option == "auto" ? std::nullopt : std::optional<Game>(parse_game(game_option)));
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
  if (folder::is_folder(a_path) || folder::is_folder(b_path))
    return diff_game_folders(a_path, b_path, game_option, json);
  PathErrors path_errors;
  // An archive's layout and dialect are found from the data files that differ (none when none does).
  auto a = open_one(a_path, {.game = game_option, .detect_later = true}, common, path_errors);
  if (!a) return kBadInput;
  // B's objects are read in A's dialect.
  const std::string b_game =
      a->archive && a->archive->game_known ? std::string(game_name(a->archive->game)) : game_option;
  auto b = open_one(b_path, {.game = b_game, .detect_later = true}, common, path_errors);
  if (!b) return kBadInput;
  if (a->archive.has_value() != b->archive.has_value()) {
    const OpenedInput& archive = a->archive ? *a : *b;
    const OpenedInput& other = a->archive ? *b : *a;
    error(
        absl::StrFormat("%s is a forge archive and %s a %s: diff compares two archives, or two level or data files "
                        "(extract the data file first: anvilrt extract)",
                        archive.path, other.path, source_kind_name(other.source.kind)));
    return kBadInput;
  }
  const bool level_files = a->source.kind == SourceKind::level_file && b->source.kind == SourceKind::level_file;
  if (level_files && !json) return diff_level_files(*a, *b, game_option, common);

  patch::ArchiveDiff diff;
  std::string kind;
  if (a->archive) {
    kind = "archives";
    const auto game = a->archive->game_known ? std::optional<Game>(a->archive->game) : std::nullopt;
    auto compared = patch::diff_archives({*a->input, a->archive->archive}, {*b->input, b->archive->archive}, game);
    if (!compared.ok()) {
      error(std::string(compared.status().message()));
      return kBadInput;
    }
    diff = std::move(*compared);
  } else {
    kind = level_files ? "level files" : "data files";
    diff.game = resolve_game(game_option, a->input->bytes(), a->source, a_path, common);
    diff.datafiles.push_back(
        patch::diff_data_files(a->input->bytes(), a->source, b->input->bytes(), b->source, diff.game));
  }
  for (const patch::DataFileDiff& d : diff.datafiles) {
    const std::string label = a->archive ? "data file " + d.name : a_path + " and " + b_path;
    std::cerr << diff_line(d, label, a->archive.has_value());
  }
  std::cout << (json ? patch::archive_diff_json(diff, a_path, b_path, kind) : patch::diff_to_patch_json(diff.ops()));
  std::cout.flush();
  if (!std::cout) return kBadInput;
  if (level_files)  // as without --json: fields that differ are a patch
    return diff.datafiles[0].state == patch::DataFileState::changed_outside ? kDiffers : kOk;
  return diff.identical() ? kOk : kDiffers;
}

}  // namespace anvil::cli
