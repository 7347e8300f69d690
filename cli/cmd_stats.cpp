// anvilrt stats PATH... [--game ac2|sws|auto] [--json] [--jobs N] [--quiet]
// Level files, decompressed data files and the data files of .forge archives are carved in parallel on
// all cores (cli/parallel.hpp) and their censuses merged in order; each archive is summed up too.
#include <absl/strings/str_format.h>

#include <iostream>
#include <optional>
#include <thread>

#include "cli/archive_input.hpp"
#include "cli/commands.hpp"
#include "cli/parallel.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/input_file.hpp"
#include "stats/census.hpp"
#include "stats/report.hpp"

namespace anvil::cli {
namespace {

// One path given, opened: a level file or data file is one job, an archive one job per data file.
struct Opened {
  std::string path;
  std::optional<InputFile> input;
  Source source;
  std::optional<ArchiveInput> archive;
  std::string error;
};

struct Job {
  std::size_t opened = 0;
  std::size_t datafile = 0;  // archives: index in the archive
};

struct JobResult {
  std::string error;  // the file does not read
  stats::Census census;
  // archives: what the data file adds to the archive's summary
  std::string compression;
  u64 stored = 0, decompressed = 0, checked_blocks = 0;
  forge::ChecksumRules rules = forge::kAllRules;
  std::string failure;  // the container check that failed
};

}  // namespace

int run_stats(int argc, char** argv) {
  std::vector<std::string> paths;
  std::string game_option;
  unsigned jobs = std::thread::hardware_concurrency();
  po::options_description options("options");
  add_game_option(options, game_option);
  options.add_options()("json", "print the same numbers as JSON")("jobs,j", po::value(&jobs)->default_value(jobs),
                                                                  "files (and data files) carved at once")(
      "quiet,q", "no progress line")("paths", po::value(&paths)->required()->multitoken(),
                                     "level files, data files, .forge archives or folders (walked recursively)");
  po::positional_options_description positional;
  positional.add("paths", -1);
  po::variables_map vm;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt stats PATH... [--game ac2|sws|auto] [--json] [--jobs N] [--quiet]\n\n"
             "Census per dialect: objects by class, bytes carved vs opaque, the value counts of the fields\n"
             "the research notes count, and the near misses (candidates that failed a check, by check). A\n"
             ".forge archive counts every data file, and is summed up: data files by compression, bytes stored\n"
             "and decompressed, the checksum rule its blocks match, and the data files that fail a container\n"
             "check.",
             options, positional, vm, code))
    return code;
  if (!check_game_option(game_option)) return kBadInput;
  const bool quiet = vm.count("quiet") > 0;

  bool paths_ok = true;
  std::vector<std::string> files = collect_files(paths, paths_ok);
  std::vector<Opened> opened(files.size());
  std::vector<Job> work;
  std::vector<std::string> labels;  // the census' file list: paths, and "ARCHIVE:NAME" for data files
  std::size_t total = 0;
  for (std::size_t i = 0; i < files.size(); ++i) {
    Opened& o = opened[i];
    o.path = files[i];
    auto input = InputFile::open(files[i]);
    if (!input.ok()) {
      o.error = std::string(input.status().message());
      work.push_back({i, 0});
      labels.push_back(o.path);
      continue;
    }
    o.input.emplace(std::move(*input));
    total += o.input->bytes().size();
    o.source = find_source(o.input->bytes(), o.path, true);
    if (o.source.kind != SourceKind::archive) {
      work.push_back({i, 0});
      labels.push_back(o.path);
      continue;
    }
    o.archive = open_archive(o.input->bytes(), o.path, game_option, {}, true);
    if (!o.archive) {
      o.error = "its tables do not read";
      continue;
    }
    auto names = forge::document_names(o.archive->archive);
    for (std::size_t d = 0; d < o.archive->archive.files.size(); ++d) {
      work.push_back({i, d});
      labels.push_back(o.path + ":" + names[d]);
    }
  }

  std::vector<stats::Census> censuses(opened.size());
  std::vector<forge::ChecksumRules> rules(opened.size(), forge::kAllRules);  // per archive, over its data files
  bool unreadable = false;
  Progress progress("stats", work.size(), total, quiet);
  run_in_order<JobResult>(
      work.size(), jobs,
      [&](std::size_t j) {
        JobResult r;
        const Opened& o = opened[work[j].opened];
        if (!o.input) {
          r.error = o.error;
        } else if (!o.archive) {
          auto bytes = o.input->bytes();
          Game game = *resolve_game(game_option, bytes, o.source, o.path, true);
          r.census.add_file(bytes, game, j, o.source.regions);
          progress.file_done(bytes.size());
        } else {
          const forge::Archive& archive = o.archive->archive;
          std::size_t d = work[j].datafile;
          r.stored = archive.files[d].index.size;
          auto read = forge::read_data_file(o.input->bytes(), archive, d);
          if (!read.ok()) {
            r.failure = std::string(read.status().message());
          } else {
            r.compression = std::string(forge::compression_name(read->decoded.compression));
            r.decompressed = read->decoded.bytes.size();
            r.checked_blocks = read->decoded.checked_blocks;
            r.rules = read->decoded.rules;
            auto file = forge::parse_data_file(read->decoded.bytes);
            if (!file.ok()) {
              r.failure = forge::data_file_label(archive, d) + ": " + std::string(file.status().message());
            } else {
              std::vector<Extent> regions;
              for (const forge::BodyAt& b : forge::body_layout(*file))
                if (b.size > 0) regions.push_back({b.offset, b.size});
              r.census.add_file(read->decoded.bytes, o.archive->game, j, regions);
            }
          }
          progress.file_done(r.stored);
        }
        return r;
      },
      [&](std::size_t j, JobResult& r) {
        const Opened& o = opened[work[j].opened];
        if (!r.error.empty()) {
          error(r.error);
          unreadable = true;
          return;
        }
        stats::Census& c = censuses[work[j].opened];
        c.merge(r.census);
        if (!o.archive) return;
        if (c.archives.empty()) {
          c.archives.emplace_back();
          c.archives.back().path = o.path;
          c.archives.back().names = forge::document_names(o.archive->archive);
          c.archives.back().checksum_rule = forge::describe_rules(forge::kAllRules, 0);
        }
        stats::Archive& a = c.archives.back();
        ++a.datafiles;
        a.stored_bytes += r.stored;
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
        if (r.checked_blocks > 0) rules[work[j].opened] &= r.rules;
        a.checksum_rule = forge::describe_rules(rules[work[j].opened], a.checked_blocks);
      });

  stats::Census census;
  for (std::size_t i = 0; i < opened.size(); ++i) {
    if (opened[i].input && !opened[i].error.empty() && opened[i].source.kind == SourceKind::archive) {
      stats::Archive a;
      a.path = opened[i].path;
      a.error = opened[i].error;
      census.archives.push_back(a);
      unreadable = true;
    }
    census.merge(censuses[i]);
  }
  std::cout << (vm.count("json") ? stats::json_report(census, labels) : stats::text_report(census, labels));
  return paths_ok && !unreadable ? kOk : kBadInput;
}

}  // namespace anvil::cli
