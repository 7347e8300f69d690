// anvilrt stats PATH... [--game ac2|sws|auto] [--json] [--jobs N] [--all] [-q] [-v]
// Level files, decompressed data files and the data files of .forge archives are carved in parallel on
// all cores (model/parallel.hpp) and their censuses merged in order; each archive is summed up too.
#include <absl/strings/str_format.h>

#include <iostream>
#include <mutex>
#include <optional>
#include <thread>

#include "cli/archive_input.hpp"
#include "cli/commands.hpp"
#include "cli/progress_bar.hpp"
#include "model/parallel.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/forge/data_files.hpp"
#include "stats/census.hpp"
#include "stats/report.hpp"

namespace anvil::cli {
namespace {

// A level file or data file is one job, an archive one job per data file.
struct Job {
  std::size_t opened = 0;
  std::size_t datafile = 0;  // archives: index in the archive
  std::string label;         // the census' file list: the path, or "ARCHIVE:NAME" for a data file
};

struct JobResult {
  GameChoice game;
  stats::Census census;
  bool carved = false;  // at least one object
  // archives: what the data file adds to the archive's summary
  std::string compression;
  u64 stored = 0, decompressed = 0, checked_blocks = 0;
  std::string failure;   // the container check that failed
  bool damaged = false;  // the failure is a damaged block (FORGE.md 2): an error, not a census entry
};

// `--game` for a level file or a data file, the note (if any) returned to be printed in order.
GameChoice choose_source_game(const std::string& option, const OpenedInput& o, const Common& common) {
  if (option != "auto" || o.source.kind != SourceKind::data_file)
    return choose_game(option, o.input->bytes(), o.path, common);
  const Game game = detect_game(o.input->bytes(), o.source);
  return {game, data_file_game_note(o.path, game, common)};
}

}  // namespace

int run_stats(int argc, char** argv) {
  std::vector<std::string> paths;
  std::string game_option;
  po::options_description options("options");
  add_game_option(options, game_option);
  add_jobs_option(options, "files (and data files) carved at once");
  options.add_options()("json", "print the same numbers as JSON")(
      "all", "in folders, take every file (default: level-file extensions and files that carve an object)")(
      "paths", po::value(&paths)->required()->multitoken(),
      "level files, data files, .forge archives or folders (walked recursively)");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt stats PATH... [--game GAMES|auto] [--json] [--jobs N] [--all] [-q] [-v]\n\n"
             "Census per dialect: objects by class, bytes carved vs opaque, the value counts of the fields\n"
             "the research notes count, and the near misses (candidates that failed a check, by check). A\n"
             ".forge archive counts every data file, and is summed up: data files by compression, bytes stored\n"
             "and decompressed, its checksum rule (the candidate most blocks match, when more than half do, with\n"
             "its count), and the data files that fail a container check. A data file with a damaged block (one\n"
             "the rule does not match) is not counted: one error line names it, and the exit is 2. Folders are\n"
             "walked for level files (README); a file that carves no object is a warning.\n"
             "A game folder (docs/game-folders.md): an interrupted change there is finished or rolled back first\n"
             "(said on stderr), and its .anvilrt/ folder is not walked.",
             options, {{"paths", "PATH", -1}}, common, vm, code))
    return code;
  if (!check_game_option(game_option)) return kBadInput;
  const u64 jobs = thread_budget();

  PathErrors path_errors;
  std::vector<WalkedFile> files = collect_files(paths, vm.count("all") > 0, path_errors);
  std::vector<OpenedInput> opened;
  std::vector<Job> work;
  std::size_t total = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    const OpenedInput& o = opened.emplace_back(open_path(files[i], {.game = game_option}, common));
    if (o.input) total += o.input->bytes().size();
    if (!o.archive) {
      if (!o.tables_failed) work.push_back({i, 0, o.path});
      continue;
    }
    for (std::size_t d = 0; d < o.archive->archive.files.size(); ++d) work.push_back({i, d, o.path + ":" + o.names[d]});
  }

  std::vector<stats::Census> censuses(opened.size());
  // Per archive, its checksum rule (FORGE.md 2), voted by all its blocks before any of its data files is
  // read: by the first of its data files' jobs, while the others wait.
  std::vector<forge::ArchiveChecksums> checksums(opened.size());
  std::vector<std::once_flag> voted(opened.size());
  bool damaged = false;
  std::vector<std::string> labels, skipped;
  ProgressBar bar("stats", common.quiet);
  for_each_index_in_order<JobResult>(
      work.size(), static_cast<unsigned>(std::min<u64>(jobs, 1024)),
      [&](std::size_t j) {
        JobResult r;
        const OpenedInput& o = opened[work[j].opened];
        if (!o.input) return r;
        if (!o.archive) {
          auto bytes = o.input->bytes();
          r.game = choose_source_game(game_option, o, common);
          std::size_t reported = 0;  // this file's share of the bar
          r.census.add_file(bytes, r.game.game, 0, o.source.regions, [&](std::size_t done, std::size_t) {
            bar.add(done - reported, total);
            reported = done;
          });
          for (const auto& [game, d] : r.census.dialects) r.carved = r.carved || !d.objects.empty();
          return r;
        }
        const forge::Archive& archive = o.archive->archive;
        std::size_t d = work[j].datafile;
        r.carved = true;  // a data file of an archive is always counted
        r.stored = archive.files[d].index.size;
        const std::size_t i = work[j].opened;
        // The vote takes all the command's cores: the other jobs of the archive wait for it.
        std::call_once(voted[i], [&] {
          checksums[i] =
              forge::archive_checksums(o.input->bytes(), archive, {}, static_cast<unsigned>(std::min<u64>(jobs, 1024)));
        });
        auto read = forge::read_data_file(o.input->bytes(), archive, d, checksums[i].verdict);
        if (!read.ok()) {
          r.failure = std::string(read.status().message());
          r.damaged = absl::IsDataLoss(read.status());
        } else {
          r.compression = std::string(forge::compression_name(read->decoded.compression));
          r.decompressed = read->decoded.bytes.size();
          r.checked_blocks = read->decoded.checked_blocks;
          auto file = forge::view_data_file(read->decoded.bytes, archive.variant());
          if (!file.ok()) {
            r.failure = forge::data_file_label(archive, d) + ": " + std::string(file.status().message());
          } else {
            std::vector<Extent> regions;
            for (const forge::BodyAt& b : forge::body_layout(*file))
              if (b.size > 0) regions.push_back({b.offset, b.size});
            r.census.add_file(read->decoded.bytes, o.archive->game, 0, regions);
          }
        }
        bar.add(r.stored, total);
        return r;
      },
      [&](std::size_t j, JobResult& r) {
        const OpenedInput& o = opened[work[j].opened];
        if (!o.input) {
          path_errors.failed(o.path, o.open);
          return;
        }
        if (!r.carved) {
          if (!o.sure) {
            skipped.push_back(o.path);
            return;
          }
          warn_no_objects(o.path, game_option);
        }
        if (!r.game.note.empty()) {
          bar.erase();
          std::cerr << r.game.note;
        }
        stats::Census& c = censuses[work[j].opened];
        r.census.set_file(labels.size());
        labels.push_back(work[j].label);
        c.merge(r.census);
        if (!o.archive) return;
        if (c.archives.empty()) {
          c.archives.emplace_back();
          c.archives.back().path = o.path;
          c.archives.back().names = o.names;
        }
        c.archives.back().checksum_rule = checksums[work[j].opened].describe();
        stats::Archive& a = c.archives.back();
        ++a.datafiles;
        a.stored_bytes += r.stored;
        if (r.damaged) {
          bar.erase();
          error(o.path + ": " + r.failure);
          damaged = true;
          return;
        }
        if (!r.failure.empty()) {
          // "offset 0x…: data file 3 'x' (0x…): what": counted by what failed.
          std::string what = r.failure;
          if (auto colon = what.rfind("): "); colon != std::string::npos) what = what.substr(colon + 3);
          stats::NearMisses& n = a.near_misses[what];
          ++n.count;
          if (n.first.size() < stats::NearMisses::kExamples)
            n.first.push_back({work[j].datafile, o.archive->archive.files[work[j].datafile].index.offset, ""});
          return;
        }
        ++a.compression[r.compression];
        a.decompressed_bytes += r.decompressed;
        a.checked_blocks += r.checked_blocks;
      });
  bar.erase();

  stats::Census census;
  bool unreadable = false;
  for (std::size_t i = 0; i < opened.size(); ++i) {
    if (opened[i].tables_failed) {
      stats::Archive a;
      a.path = opened[i].path;
      a.error = "its tables do not read";
      census.archives.push_back(a);
      unreadable = true;
    }
    census.merge(censuses[i]);
  }
  report_skipped(skipped, common);
  std::cout << (vm.count("json") ? stats::json_report(census, labels) : stats::text_report(census, labels));
  return path_errors.any() || unreadable || damaged ? kBadInput : kOk;
}

}  // namespace anvil::cli
