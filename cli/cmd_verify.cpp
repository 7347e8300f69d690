// anvilrt verify PATH... [--game ac2|sws|auto] [--no-json] [--recompress] [--jobs N] [--all] [-q] [-v]
// Level files, decompressed data files, and each .forge archive's tables and data files are verified in
// parallel (pipeline/verify_run.hpp) and reported in order.
#include <absl/strings/str_format.h>

#include <iostream>

#include "cli/archive_input.hpp"
#include "cli/commands.hpp"
#include "cli/input_view.hpp"
#include "cli/progress_bar.hpp"
#include "model/counted.hpp"
#include "pipeline/verify_run.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/forge/data_files.hpp"

namespace anvil::cli {
namespace {

std::string data_file_line(const forge::DataFileVerify& d) {
  std::string line =
      absl::StrFormat("%s stored (%s), %d decompressed, %s, %s carved, %s opaque, %s", counted(d.stored_size, "byte"),
                      forge::compression_name(d.compression), d.decompressed_size, counted(d.entries, "entry"),
                      counted(d.objects.objects, "object"), counted(d.objects.opaque_bytes, "byte"),
                      counted(d.objects.near_misses, "near miss"));
  if (!d.error.empty()) return line + ": DOES NOT READ: " + d.error;
  if (d.stored_difference)
    return line + absl::StrFormat(": DIFFERS at archive offset 0x%x (its stored form re-encodes differently)",
                                  *d.stored_difference);
  if (d.table_difference)
    return line + absl::StrFormat(": DIFFERS at decompressed offset 0x%x (its entry table re-encodes differently)",
                                  *d.table_difference);
  if (!d.objects.identical())
    return line + absl::StrFormat(": DIFFERS at decompressed offset 0x%x (%s)", *d.objects.first_difference,
                                  d.objects.difference);
  return line + ": identical";
}

// The inputs as the pipeline takes them: views of the opened files.
std::vector<VerifyInput> verify_inputs_of(const std::vector<OpenedInput>& opened) {
  std::vector<VerifyInput> inputs;
  for (const OpenedInput& o : opened) inputs.push_back(input_view(o));
  return inputs;
}

// Prints each step as it is reported: one line per file, per archive's tables and per data file.
class VerifyPrinter {
 public:
  VerifyPrinter(const std::vector<OpenedInput>& opened, const std::string& game_option, bool recompress,
                const Common& common, PathErrors& path_errors, ProgressBar& bar)
      : opened_(opened),
        game_option_(game_option),
        recompress_(recompress),
        common_(common),
        path_errors_(path_errors),
        bar_(bar) {}

  void print(const VerifyStep& step) {
    const OpenedInput& o = opened_[step.input];
    bar_.erase();
    using Kind = VerifyStep::Kind;
    if (step.kind == Kind::not_read) path_errors_.failed(o.path, o.open);
    if (step.kind == Kind::not_read || step.kind == Kind::tables_failed) return;  // tables: said by open_path
    if (step.kind == Kind::level_file || step.kind == Kind::data_file) {
      if (step.no_objects) warn_no_objects(o.path, game_option_);
      if (step.detection) std::cerr << detection_note(o.path, *step.detection, common_);
      if (step.game_detected) std::cerr << data_file_game_note(o.path, step.game, common_);
    }
    if (step.kind == Kind::archive_tables)
      print_tables(o, step);
    else if (step.kind == Kind::archive_data_file)
      std::cout << absl::StrFormat(
          "%s: %s (%s): %s\n", o.path, o.names[step.datafile],
          forge::format_id(o.archive->archive.files[step.datafile].index.file_id.value, o.archive->archive.variant()),
          data_file_line(step.verified));
    else if (step.kind == Kind::data_file)
      std::cout << absl::StrFormat("%s: %s data file: %s\n", o.path, game_name(step.game),
                                   data_file_line(step.verified));
    else
      print_level_file(o, step);
    if (step.finished) print_archive(o, *step.finished);
    std::cout.flush();
  }

 private:
  static void print_tables(const OpenedInput& o, const VerifyStep& step) {
    std::cout << absl::StrFormat("%s: forge archive, %s, %s, %s: ", o.path, counted(o.archive->archive.size, "byte"),
                                 counted(o.archive->archive.files.size(), "data file"), game_name(o.archive->game));
    if (step.tables.first_difference)
      std::cout << absl::StrFormat("tables DIFFER at offset 0x%x\n", *step.tables.first_difference);
    else
      std::cout << "tables identical\n";
  }

  static void print_level_file(const OpenedInput& o, const VerifyStep& step) {
    const VerifyReport& rep = step.report;
    std::cout << absl::StrFormat("%s: %s, %s, %s carved, %s opaque, %s: ", o.path, game_name(step.game),
                                 counted(rep.size, "byte"), counted(rep.objects, "object"),
                                 counted(rep.opaque_bytes, "byte"), counted(rep.near_misses, "near miss"));
    if (rep.identical())
      std::cout << "identical\n";
    else
      std::cout << absl::StrFormat("DIFFERS at offset 0x%x (%s)\n", *rep.first_difference, rep.difference);
  }

  void print_archive(const OpenedInput& o, const ArchiveVerifyTally& t) const {
    bar_.erase();
    const forge::ChecksumVerdict& verdict = t.verdict;
    std::cout << absl::StrFormat("%s: archive version %d, data-file layout %d, checksum rule %s", o.path,
                                 o.archive->archive.header.version, o.archive->archive.variant().layout,
                                 verdict.describe());
    if (verdict.blocks > 0 && !verdict.rule) std::cout << ": no block checked";
    for (const auto& [c, r] : t.recompressed)
      std::cout << absl::StrFormat("; recompressed %s: %d of %s identical", forge::compression_name(c), r.identical,
                                   counted(r.blocks, "block"));
    if (recompress_ && t.recompressed.empty()) std::cout << "; recompressed: no compressed blocks";
    std::cout << absl::StrFormat(": %d of %s identical\n", t.identical, counted(t.datafiles, "data file"));
  }

  const std::vector<OpenedInput>& opened_;
  const std::string& game_option_;
  bool recompress_;
  const Common& common_;
  PathErrors& path_errors_;
  ProgressBar& bar_;
};

}  // namespace

int run_verify(int argc, char** argv) {
  std::vector<std::string> paths;
  std::string game_option;
  po::options_description options("options");
  add_game_option(options, game_option);
  add_jobs_option(options,
                  "files and data files are verified at once; cores left over go to each file's objects, carved\n"
                  "in parts that hand over where they meet (the same result)");
  options.add_options()("no-json", "only bytes -> model -> bytes (skip bytes -> JSON -> bytes)")(
      "recompress", "archives: also re-compress every compressed block and count those identical to the stored ones");
  add_walked_paths(options, paths);
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt verify PATH... [--game GAMES|auto] [--no-json] [--recompress] [--jobs N] [--all]\n"
             "       [-q] [-v]\n\n"
             "For each file: bytes -> model -> bytes and (unless --no-json) bytes -> JSON -> bytes must both\n"
             "give the file back identically, every object re-encoded from its fields. One line per file:\n"
             "the dialect, objects carved, bytes left opaque, candidates that failed a check, the result.\n"
             "A .forge archive: its tables re-encoded and compared, then one line per data file (stored form\n"
             "re-encoded, every block decompressed and its checksum checked against the archive's rule, entry\n"
             "table and objects round-tripped), then that rule: the candidate (Adler-32 from 0 or 1, over the\n"
             "stored or the decompressed bytes) most blocks match, when more than half do, with its count;\n"
             "a block it does not match is damaged: its data file DOES NOT READ. Without such a candidate the\n"
             "rule is none and no block is checked. --recompress counts, per algorithm, the blocks that\n"
             "re-compress to their stored bytes.\n"
             "Folders are walked for level files (README); a file that carves no object is a warning.\n"
             "A game folder (docs/game-folders.md): an interrupted change there is finished or rolled back first\n"
             "(said on stderr), and its .anvilrt/ folder is not walked.\n"
             "Exit 0: all identical; 1: a file differs (its first differing offset is printed); 2: bad input.",
             options, {{"paths", "PATH", -1}}, common, vm, code))
    return code;
  if (!check_game_option(game_option)) return kBadInput;
  const bool recompress = vm.count("recompress") > 0;
  PathErrors path_errors;
  std::vector<OpenedInput> opened;
  for (const WalkedFile& file : collect_files(open_folders(paths, path_errors), vm.count("all") > 0, path_errors))
    opened.push_back(open_path(file, {.game = game_option}, common));
  const std::vector<VerifyInput> inputs = verify_inputs_of(opened);
  ProgressBar bar("verify", common.quiet);
  VerifyPrinter printer(opened, game_option, recompress, common, path_errors, bar);
  VerifyRunOptions run{game_option == "auto" ? std::nullopt : parse_game(game_option), vm.count("no-json") == 0,
                       recompress, [&](std::size_t bytes, std::size_t total) { bar.add(bytes, total); }};
  const VerifyTotals totals = verify_inputs(inputs, run, [&](const VerifyStep& step) { printer.print(step); });
  bar.erase();
  report_skipped(totals.skipped, common);
  std::cout << absl::StrFormat("verified %s: %d identical, %d %s, %d missing, %d unreadable\n",
                               counted(totals.identical + totals.different + totals.unreadable, "file"),
                               totals.identical, totals.different, totals.different == 1 ? "differs" : "differ",
                               path_errors.missing_count(), path_errors.unreadable_count() + totals.unreadable);
  if (path_errors.any() || totals.unreadable > 0) return kBadInput;
  return totals.different > 0 ? kDiffers : kOk;
}

}  // namespace anvil::cli
