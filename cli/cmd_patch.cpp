// anvilrt patch FILE PATCH.json (-o OUT | --in-place [--force]) [--dry-run] [--game ac2|sws|auto] [-q] [-v]
#include <absl/strings/str_format.h>

#include <filesystem>
#include <iostream>

#include "cli/archive_input.hpp"
#include "cli/commands.hpp"
#include "cli/progress_bar.hpp"
#include "model/counted.hpp"
#include "patch/archive_patch.hpp"
#include "patch/patch.hpp"
#include "pipeline/archive_patch_output.hpp"
#include "pipeline/file_patch_run.hpp"
#include "pipeline/folder_patch_run.hpp"
#include "platform/paths.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/forge/data_files.hpp"

namespace anvil::cli {
namespace {

void print_change(const patch::Change& c, const char* indent) {
  if (c.op == "test")
    std::cout << absl::StrFormat("%sop %d test %s: %s (passed)\n", indent, c.op_index, c.pointer, c.old_value);
  else
    std::cout << absl::StrFormat("%sop %d %s %s: %s -> %s\n", indent, c.op_index, c.op, c.pointer,
                                 c.old_value.empty() ? "(nothing)" : c.old_value,
                                 c.new_value.empty() ? "(nothing)" : c.new_value);
}

// `patch` of a .forge archive: the operations routed to its data files (patch/archive_patch.hpp), the
// edited data files written back through the archive's edit path (FORGE.md 4).
int patch_archive(const OpenedInput& opened, std::string_view text, const std::string& patch_path,
                  const std::string& out, const platform::OutputOptions& output_options, bool dry_run) {
  const InputFile& input = *opened.input;
  const std::string& file = opened.path;
  const ArchiveInput* archive = &*opened.archive;
  forge::ArchiveLevels levels(input.bytes(), archive->archive, archive->game);
  levels.release_read_with([&input](std::size_t offset, std::size_t size) { input.release(offset, size); });
  patch::PatchOptions patch_options;
  patch_options.record_changes = dry_run;
  patch::ArchivePatchOutcome outcome = patch::apply_archive_patch_text(levels, text, patch_options);
  if (outcome.error) {
    error(outcome.error->line(patch_path, file));
    return outcome.error->exit_code;
  }
  if (dry_run) {
    for (const patch::Change& c : outcome.document_changes) print_change(c, "");
    for (const patch::DataFilePatch& d : outcome.datafiles) {
      std::cout << absl::StrFormat("data file %s: %s would change\n", levels.name(d.datafile),
                                   counted(d.result.edited.size(), "object"));
      for (const patch::Change& c : d.result.changes) print_change(c, "  ");
    }
    std::cout << absl::StrFormat("dry run: %s would change in %d of %s; nothing written\n",
                                 counted(outcome.edited_objects(), "object"), outcome.edited_datafiles(),
                                 counted(levels.size(), "data file"));
    return kOk;
  }
  auto written = forge::write_patched_archive(input.bytes(), levels, outcome, out, output_options, &input);
  if (!written.ok()) {
    error(std::string(written.status().message()));
    return kBadInput;
  }
  // A damaged data file no edit touched was not read: it is copied as it is, damage included.
  const forge::ArchiveChecksums& checksums = levels.checksums();
  for (std::size_t i = 0; i < archive->archive.files.size(); ++i)
    if (checksums.damaged(i))
      warning(file, absl::StrFormat("%s holds a damaged block (its checksums do not all match the archive's rule "
                                    "%s): copied byte for byte, unread",
                                    forge::data_file_label(archive->archive, i), checksums.describe()));
  return kOk;
}

void print_recovered(const std::vector<std::string>& lines) {
  for (const std::string& line : lines) std::cerr << "anvilrt: " << line << "\n";
}

// `patch` of a game folder: the operations routed to its archives (pipeline/folder_patch.hpp), the edited
// archives written as one transaction (pipeline/folder_transaction.hpp).
int patch_game_folder(const std::string& dir, std::string_view text, const std::string& patch_path,
                      const std::string& out, bool dry_run, const std::string& game_option, const Common& common) {
  folder::FolderPatchRequest request;
  request.dir = dir;
  request.out_dir = out;
  request.dry_run = dry_run;
  if (game_option != "auto") request.options.game = parse_game(game_option);
  request.options.layout = common.layout;
  request.intent = "patch " + patch_path;
  folder::FolderPatchRun run = folder::patch_folder(request, text);
  print_recovered(run.recovered);
  if (!run.status.ok()) {
    error(std::string(run.status.message()));
    return kBadInput;
  }
  if (run.outcome.error) {
    error(run.outcome.error->line(patch_path, ""));  // an input's fault names its archive in its reason
    return run.outcome.error->exit_code;
  }
  if (!dry_run) return kOk;
  for (const folder::ArchivePatch& a : run.outcome.archives) {
    for (const patch::Change& c : a.outcome.document_changes) print_change(c, "");
    for (std::size_t i = 0; i < a.outcome.datafiles.size(); ++i) {
      const patch::DataFilePatch& d = a.outcome.datafiles[i];
      std::cout << absl::StrFormat("archive %s, data file %s: %s would change\n", run.archives[a.archive],
                                   a.datafile_names[i], counted(d.result.edited.size(), "object"));
      for (const patch::Change& c : d.result.changes) print_change(c, "  ");
    }
  }
  std::cout << absl::StrFormat(
      "dry run: %s would change in %s of %s; nothing written\n", counted(run.outcome.edited_objects(), "object"),
      counted(run.outcome.edited_datafiles(), "data file"), counted(run.archives.size(), "archive"));
  return kOk;
}

// Where a patched level or data file goes, and what names it.
struct FileTarget {
  const std::string& file;
  const std::string& out;
  bool dry_run = false;
  platform::OutputOptions output_options;
  const std::string& game_option;  // for the warning of a file that carves no object
};

// `patch` of a level file or a decompressed data file (pipeline/file_patch_run.hpp).
int patch_level_or_data_file(InputFile& input, const Source& source, Game game, std::string_view text,
                             const std::string& patch_path, const FileTarget& target, const Common& common) {
  ProgressBar bar("patch", common.quiet);
  patch::FilePatchRequest request{text, target.dry_run, target.out, target.output_options, {}, [&] {
                                    bar.erase();
                                    warn_no_objects(target.file, target.game_option);
                                  }};
  if (bar.enabled()) request.progress = [&bar](std::size_t done, std::size_t total) { bar.update(done, total); };
  const patch::FilePatchRun run = patch::patch_file(input, source, game, request);
  if (run.outcome.error) {
    error(run.outcome.error->line(patch_path, target.file));
    return run.outcome.error->exit_code;
  }
  if (target.dry_run) {
    bar.erase();
    for (const patch::Change& c : run.outcome.result.changes) print_change(c, "");
    std::cout << absl::StrFormat("dry run: %s would change; nothing written\n",
                                 counted(run.outcome.result.edited.size(), "object"));
    return kOk;
  }
  if (!run.written.ok()) {
    error(std::string(run.written.message()));
    return kBadInput;
  }
  return kOk;
}

}  // namespace

// `anvilrt patch --help`.
constexpr const char* kPatchUsage =
    "usage: anvilrt patch FILE PATCH (-o OUT | --in-place | --dry-run) [--game GAMES|auto] [--jobs N]\n"
    "       [-q] [-v]\n\n"
    "Applies the patch all or nothing: any failing operation aborts it and nothing is written. The\n"
    "output is read back and checked before it replaces the target. docs/patches.md lists every\n"
    "operation (RFC 6902 test, replace, add, remove, move, copy; swap_material, transform,\n"
    "set_switch_distance, scale_switch_distance, duplicate_instance, remove_instance,\n"
    "add_material), what each refuses, with examples. An object may change size inside a data\n"
    "file or an archive (its entry's file_size and data_size follow), never in a level file.\n"
    "Of a .forge archive: /objects/KEY/... addresses the one data file holding KEY,\n"
    "/datafiles/NAME/objects/KEY/... the data file NAME (as ls shows it, its file name, or 0xID:\n"
    "docs/data-file-names.md); bulk operations range over every data file, or\n"
    "over their \"datafiles\": [NAME, ...]; only the data files edited are re-compressed. A damaged data\n"
    "file (a block its checksum rule does not match) is refused if edited, else copied byte for byte\n"
    "with a warning.\n"
    "FILE may be a game folder (docs/game-folders.md): its .forge archives (directly in it) patched as\n"
    "one document; /archives/A.forge/... addresses one archive, /objects/KEY/... the one archive holding\n"
    "KEY (a key in two archives is refused). --in-place changes every archive it changes or none, even\n"
    "when killed (a journal in DIR/.anvilrt/, finished or rolled back by the next command on DIR);\n"
    "-o OUTDIR makes a new folder of all the archives. A read-only archive is refused.\n"
    "PATCH may be a mod document, or, for a game folder, a mod package (a folder, .zip or .7z of\n"
    "Extracted/A.forge/NAME.data data files and archives: docs/mods.md): what it changes against the\n"
    "folder's original archives, field by field.\n"
    "FILE or PATCH may be - (standard input); OUT may be - (standard output).\n"
    "Exit 0: applied; 1: a test failed or a bulk operation matched nothing; 2: bad input.";

int run_patch(int argc, char** argv) {
  std::string file, patch_path, out, game_option;
  po::options_description options("options");
  add_game_option(options, game_option);
  add_jobs_option(options, "the search of an archive's data files for a key, and block compression");
  options.add_options()("output,o", po::value(&out),
                        "write the patched file to OUT (atomically; - for standard output)")(
      "in-place", "replace FILE itself (atomically, keeping its mode)")(
      "force", "replace FILE even when it is read-only (with --in-place, or -o naming FILE itself)")(
      "dry-run", "print what each operation changes and write nothing")(
      "file", po::value(&file)->required(),
      "a level file, a decompressed data file or a .forge archive (- for standard input)")(
      "patch", po::value(&patch_path)->required(), "the patch: a JSON array of operations (- for standard input)");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv, kPatchUsage, options, {{"file", "FILE"}, {"patch", "PATCH"}}, common, vm, code)) return code;
  if (!check_game_option(game_option)) return kBadInput;
  bool dry_run = vm.count("dry-run") > 0;
  bool in_place = vm.count("in-place") > 0;
  const char* usage = " (usage: anvilrt patch FILE PATCH (-o OUT | --in-place | --dry-run))";
  if (!check_output_choice(out, in_place, dry_run, usage)) return kBadInput;
  if (file == "-" && patch_path == "-") {
    error("FILE and PATCH cannot both be standard input (-)");
    return kBadInput;
  }
  if (in_place && file == "-") {
    error("--in-place replaces FILE, and standard input (-) is not a file: give -o OUT");
    return kBadInput;
  }
  // -o naming FILE itself (by any path to it) replaces FILE as --in-place does, under the same rule.
  PathErrors path_errors;
  std::error_code same_error;
  const bool onto_input = !in_place && !out.empty() && file != "-" && out != "-" &&
                          std::filesystem::equivalent(platform::path_of(file), platform::path_of(out), same_error) &&
                          !same_error;
  if (vm.count("force") && !in_place && !onto_input) {
    error("--force only goes with --in-place (or -o naming FILE itself)");
    return kBadInput;
  }
  if (folder::is_folder(file)) {
    auto text = read_patch(patch_path, path_errors, file);
    if (!text) return kBadInput;
    return patch_game_folder(file, *text, patch_path, in_place ? "" : out, dry_run, game_option, common);
  }
  if (in_place) out = file;

  auto opened = open_one(file, {.game = game_option, .announce = true}, common, path_errors);
  if (!opened) return kBadInput;
  InputFile* input = &*opened->input;
  auto text = read_patch(patch_path, path_errors, file);
  if (!text) return kBadInput;
  // Replacing a read-only FILE (--in-place, or -o FILE) is refused unless --force, for a level file and an
  // archive alike.
  const platform::OutputOptions output_options{.in_place = in_place || onto_input, .force = vm.count("force") > 0};
  const Source& source = opened->source;
  if (opened->archive) return patch_archive(*opened, *text, patch_path, out, output_options, dry_run);
  Game game = resolve_game(game_option, input->bytes(), source, file, common);
  return patch_level_or_data_file(*input, source, game, *text, patch_path,
                                  {file, out, dry_run, output_options, game_option}, common);
}

}  // namespace anvil::cli
