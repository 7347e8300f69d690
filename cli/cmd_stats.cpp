// anvilrt stats PATH... [--game ac2|sws|auto] [--json] [--jobs N] [--all] [-q] [-v]
// Level files, decompressed data files and the data files of .forge archives are carved in parallel
// (stats/stats_run.hpp) and their censuses merged in order; each archive is summed up too.
#include <iostream>

#include "cli/archive_input.hpp"
#include "cli/commands.hpp"
#include "cli/input_view.hpp"
#include "cli/progress_bar.hpp"
#include "stats/report.hpp"
#include "stats/stats_run.hpp"

namespace anvil::cli {
namespace {

// The inputs as the census takes them: views of the opened files, and each archive's data file names.
std::vector<stats::StatsInput> stats_inputs_of(const std::vector<OpenedInput>& opened) {
  std::vector<stats::StatsInput> inputs;
  for (const OpenedInput& o : opened) {
    stats::StatsInput& in = inputs.emplace_back();
    static_cast<InputView&>(in) = input_view(o);
    if (o.archive) in.names = &o.names;
  }
  return inputs;
}

// Says on stderr what a job reports: a file that does not read or carves nothing, the dialect `auto`
// picked (--verbose), a damaged data file.
void say(const stats::StatsStep& step, const OpenedInput& o, const std::string& game_option, const Common& common,
         PathErrors& path_errors, ProgressBar& bar) {
  if (!step.read) {
    path_errors.failed(o.path, o.open);
    return;
  }
  if (step.no_objects) warn_no_objects(o.path, game_option);
  const std::string note = step.detection  ? detection_note(o.path, *step.detection, common)
                           : step.detected ? data_file_game_note(o.path, *step.detected, common)
                                           : "";
  if (!note.empty()) {
    bar.erase();
    std::cerr << note;
  }
  if (!step.damaged.empty()) {
    bar.erase();
    error(o.path + ": " + step.damaged);
  }
}

}  // namespace

int run_stats(int argc, char** argv) {
  std::vector<std::string> paths;
  std::string game_option;
  po::options_description options("options");
  add_game_option(options, game_option);
  add_jobs_option(options, "files (and data files) carved at once");
  options.add_options()("json", "print the same numbers as JSON");
  add_walked_paths(options, paths);
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
  PathErrors path_errors;
  std::vector<OpenedInput> opened;
  for (const WalkedFile& file : collect_files(open_folders(paths, path_errors), vm.count("all") > 0, path_errors))
    opened.push_back(open_path(file, {.game = game_option}, common));
  const std::vector<stats::StatsInput> inputs = stats_inputs_of(opened);
  ProgressBar bar("stats", common.quiet);
  stats::StatsRunOptions run{game_option == "auto" ? std::nullopt : parse_game(game_option),
                             [&](std::size_t bytes, std::size_t total) { bar.add(bytes, total); }};
  const stats::StatsRun census = stats::census_of_inputs(inputs, run, [&](const stats::StatsStep& step) {
    say(step, opened[step.input], game_option, common, path_errors, bar);
  });
  bar.erase();
  report_skipped(census.skipped, common);
  std::cout << (vm.count("json") ? stats::json_report(census.census, census.labels)
                                 : stats::text_report(census.census, census.labels));
  return path_errors.any() || census.unreadable || census.damaged ? kBadInput : kOk;
}

}  // namespace anvil::cli
