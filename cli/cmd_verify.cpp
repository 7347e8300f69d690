// anvilrt verify PATH... [--game ac2|sws|auto] [--no-json] [--recompress] [--jobs N] [--all] [-q] [-v]
// Level files, decompressed data files, and each .forge archive's tables and data files are verified in
// parallel on all cores (model/parallel.hpp) and reported in order.
#include <absl/strings/str_format.h>

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <mutex>
#include <thread>

#include "cli/archive_input.hpp"
#include "cli/commands.hpp"
#include "cli/progress_bar.hpp"
#include "model/counted.hpp"
#include "model/parallel.hpp"
#include "pipeline/archive_verify.hpp"
#include "pipeline/verify.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/forge/data_files.hpp"

namespace anvil::cli {
namespace {

// One job: a level or data file, an archive's tables, or one data file of an archive.
struct VerifyJob {
  static constexpr std::size_t kTables = static_cast<std::size_t>(-1);
  std::size_t opened = 0;
  std::size_t datafile = kTables;
};

struct VerifyResult {
  GameChoice game;
  VerifyReport report;             // a level file
  forge::DataFileVerify datafile;  // a data file
  forge::TablesVerify tables;      // an archive's tables
};

// Per archive, summed over its data files as they are reported.
struct ArchiveTally {
  std::size_t datafiles = 0, identical = 0, unreadable = 0;
  std::map<forge::Compression, forge::Recompressed> recompressed;
  bool tables_identical = true;
};

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
      "recompress", "archives: also re-compress every compressed block and count those identical to the stored ones")(
      "all", "in folders, take every file (default: level-file extensions and files that carve an object)")(
      "paths", po::value(&paths)->required()->multitoken(),
      "level files, data files, .forge archives or folders (walked recursively)");
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
  const bool json = vm.count("no-json") == 0, recompress = vm.count("recompress") > 0;
  const u64 jobs = thread_budget();

  PathErrors path_errors;
  std::vector<WalkedFile> files = collect_files(paths, vm.count("all") > 0, path_errors);
  std::vector<OpenedInput> opened;
  std::vector<VerifyJob> work;
  std::size_t total = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const OpenedInput& o = opened.emplace_back(open_path(files[i], {.game = game_option}, common));
    if (o.input) total += o.input->bytes().size();
    work.push_back({i, VerifyJob::kTables});
    if (o.archive)
      for (std::size_t d = 0; d < o.archive->archive.files.size(); ++d) work.push_back({i, d});
  }

  // Cores left over when there are fewer jobs than cores go to each job's objects (one large file).
  const unsigned per_job =
      static_cast<unsigned>(std::clamp<u64>(jobs / std::max<std::size_t>(work.size(), 1), 1, 1024));
  std::size_t identical = 0, different = 0, unreadable = 0;
  std::vector<std::string> skipped;
  std::vector<ArchiveTally> tallies(opened.size());
  // Per archive, its checksum rule (FORGE.md 2), voted by all its blocks before any of its data files is
  // checked against it: by the first of its data files' jobs, while the others wait.
  std::vector<forge::ArchiveChecksums> checksums(opened.size());
  std::vector<std::once_flag> voted(opened.size());
  ProgressBar bar("verify", common.quiet);
  auto finish_archive = [&](std::size_t i) {
    const OpenedInput& o = opened[i];
    const ArchiveTally& t = tallies[i];
    bar.erase();
    const forge::ChecksumVerdict& verdict = checksums[i].verdict;
    std::cout << absl::StrFormat("%s: archive version %d, data-file layout %d, checksum rule %s", o.path,
                                 o.archive->archive.header.version, o.archive->archive.variant().layout,
                                 verdict.describe());
    if (verdict.blocks > 0 && !verdict.rule) std::cout << ": no block checked";
    for (const auto& [c, r] : t.recompressed)
      std::cout << absl::StrFormat("; recompressed %s: %d of %s identical", forge::compression_name(c), r.identical,
                                   counted(r.blocks, "block"));
    if (recompress && t.recompressed.empty()) std::cout << "; recompressed: no compressed blocks";
    bool ok = t.tables_identical && t.identical == t.datafiles;
    std::cout << absl::StrFormat(": %d of %s identical\n", t.identical, counted(t.datafiles, "data file"));
    if (t.unreadable > 0)
      ++unreadable;
    else
      ok ? ++identical : ++different;
  };
  for_each_index_in_order<VerifyResult>(
      work.size(), static_cast<unsigned>(std::min<u64>(jobs, 1024)),
      [&](std::size_t j) {
        VerifyResult r;
        const OpenedInput& o = opened[work[j].opened];
        if (!o.ok()) return r;
        auto bytes = o.input->bytes();
        forge::VerifyOptions v{o.archive ? o.archive->game : Game::ac2, json, recompress, per_job};
        if (o.archive && work[j].datafile == VerifyJob::kTables) {
          r.tables = forge::verify_tables(bytes, o.archive->archive);
        } else if (o.archive) {
          const std::size_t i = work[j].opened;
          // The vote takes all the command's cores: the other jobs of the archive wait for it.
          std::call_once(voted[i], [&] {
            checksums[i] = forge::archive_checksums(bytes, o.archive->archive, {},
                                                    static_cast<unsigned>(std::min<u64>(jobs, 1024)));
          });
          r.datafile = forge::verify_data_file(bytes, o.archive->archive, work[j].datafile, v, checksums[i].verdict);
          bar.add(o.archive->archive.files[work[j].datafile].index.size, total);
        } else if (o.source.kind == SourceKind::data_file) {
          r.game = {game_option == "auto" ? detect_game(bytes, o.source) : *parse_game(game_option), ""};
          if (game_option == "auto") r.game.note = data_file_game_note(o.path, r.game.game, common);
          v.game = r.game.game;
          r.datafile = forge::verify_decompressed(bytes, v);
          bar.add(bytes.size(), total);
        } else {
          r.game = choose_game(game_option, bytes, o.path, common);
          std::size_t reported = 0;  // this file's share of the bar
          r.report = verify_bytes(
              bytes, r.game.game, json,
              [&](std::size_t done, std::size_t) {
                bar.add(done - reported, total);
                reported = done;
              },
              per_job);
        }
        return r;
      },
      [&](std::size_t j, VerifyResult& r) {
        std::size_t i = work[j].opened;
        const OpenedInput& o = opened[i];
        bar.erase();
        if (!o.input) {
          path_errors.failed(o.path, o.open);
          return;
        }
        if (o.tables_failed) {  // said by open_path
          ++unreadable;
          return;
        }
        if (!o.archive) {
          bool none = o.source.kind == SourceKind::data_file ? r.datafile.objects.objects == 0 && r.datafile.identical()
                                                             : r.report.objects == 0 && r.report.identical();
          if (none) {
            if (!o.sure) {
              skipped.push_back(o.path);
              return;
            }
            warn_no_objects(o.path, game_option);
          }
          std::cerr << r.game.note;
        }
        if (o.archive && work[j].datafile == VerifyJob::kTables) {
          std::cout << absl::StrFormat(
              "%s: forge archive, %s, %s, %s: ", o.path, counted(o.archive->archive.size, "byte"),
              counted(o.archive->archive.files.size(), "data file"), game_name(o.archive->game));
          if (r.tables.first_difference)
            std::cout << absl::StrFormat("tables DIFFER at offset 0x%x\n", *r.tables.first_difference);
          else
            std::cout << "tables identical\n";
          tallies[i].tables_identical = !r.tables.first_difference;
          if (o.archive->archive.files.empty()) finish_archive(i);
        } else if (o.archive) {
          std::size_t d = work[j].datafile;
          const forge::DataFileVerify& v = r.datafile;
          const forge::Archive& archive = o.archive->archive;
          std::cout << absl::StrFormat("%s: %s (%s): %s\n", o.path, o.names[d],
                                       forge::format_id(archive.files[d].index.file_id.value, archive.variant()),
                                       data_file_line(v));
          ArchiveTally& t = tallies[i];
          ++t.datafiles;
          t.identical += v.identical();
          t.unreadable += !v.error.empty();
          for (const auto& [c, rc] : v.recompressed) {
            t.recompressed[c].blocks += rc.blocks;
            t.recompressed[c].identical += rc.identical;
          }
          if (d + 1 == o.archive->archive.files.size()) finish_archive(i);
        } else if (o.source.kind == SourceKind::data_file) {
          std::cout << absl::StrFormat("%s: %s data file: %s\n", o.path, game_name(r.game.game),
                                       data_file_line(r.datafile));
          if (!r.datafile.error.empty())
            ++unreadable;
          else
            r.datafile.identical() ? ++identical : ++different;
        } else {
          const VerifyReport& rep = r.report;
          std::cout << absl::StrFormat("%s: %s, %s, %s carved, %s opaque, %s: ", o.path, game_name(r.game.game),
                                       counted(rep.size, "byte"), counted(rep.objects, "object"),
                                       counted(rep.opaque_bytes, "byte"), counted(rep.near_misses, "near miss"));
          if (rep.identical()) {
            std::cout << "identical\n";
            ++identical;
          } else {
            std::cout << absl::StrFormat("DIFFERS at offset 0x%x (%s)\n", *rep.first_difference, rep.difference);
            ++different;
          }
        }
        std::cout.flush();
      });
  bar.erase();
  report_skipped(skipped, common);
  std::cout << absl::StrFormat("verified %s: %d identical, %d %s, %d missing, %d unreadable\n",
                               counted(identical + different + unreadable, "file"), identical, different,
                               different == 1 ? "differs" : "differ", path_errors.missing_count(),
                               path_errors.unreadable_count() + unreadable);
  if (path_errors.any() || unreadable > 0) return kBadInput;
  return different > 0 ? kDiffers : kOk;
}

}  // namespace anvil::cli
