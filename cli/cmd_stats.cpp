// anvilrt stats PATH... [--game ac2|sws|auto] [--json] [--all] [-q] [-v]
// Files are carved in parallel on all cores and their censuses merged in file order.
#include <absl/strings/str_format.h>

#include <filesystem>
#include <iostream>
#include <thread>

#include "cli/commands.hpp"
#include "cli/parallel.hpp"
#include "cli/progress_bar.hpp"
#include "stats/census.hpp"
#include "stats/report.hpp"

namespace anvil::cli {
namespace {

struct FileCensus {
  absl::Status open;  // the file could not be read
  GameChoice game;
  stats::Census census;
  bool carved = false;  // at least one object
};

}  // namespace

int run_stats(int argc, char** argv) {
  std::vector<std::string> paths;
  std::string game_option;
  po::options_description options("options");
  add_game_option(options, game_option);
  options.add_options()("json", "print the same numbers as JSON")(
      "all", "in folders, take every file (default: level-file extensions and files that carve an object)")(
      "paths", po::value(&paths)->required()->multitoken(), "files or folders (walked recursively)");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt stats PATH... [--game ac2|sws|auto] [--json] [--all] [-q] [-v]\n\n"
             "Census per dialect: objects by class, bytes carved vs opaque, the value counts of the fields\n"
             "the research notes count, and the near misses (candidates that failed a check, by check).\n"
             "Folders are walked for level files (README); a file that carves no object is a warning.",
             options, {{"paths", "PATH", -1}}, common, vm, code))
    return code;
  if (!check_game_option(game_option)) return kBadInput;

  PathErrors path_errors;
  std::vector<WalkedFile> files = collect_files(paths, vm.count("all") > 0, path_errors);
  std::size_t total = 0;
  for (const auto& f : files) {
    std::error_code ec;
    auto size = std::filesystem::file_size(f.path, ec);
    if (!ec) total += size;
  }
  ProgressBar bar("stats", common.quiet);
  stats::Census census;
  std::vector<std::string> taken, skipped;
  run_in_order<FileCensus>(
      files.size(), std::max(1u, std::thread::hardware_concurrency()),
      [&](std::size_t i) {
        FileCensus result;
        auto input = InputFile::open(files[i].path);
        if (!input.ok()) {
          result.open = input.status();
          return result;
        }
        result.game = choose_game(game_option, input->bytes(), files[i].path, common);
        std::size_t reported = 0;  // this file's share of the bar
        result.census.add_file(input->bytes(), result.game.game, 0, [&](std::size_t done, std::size_t) {
          bar.add(done - reported, total);
          reported = done;
        });
        for (const auto& [game, d] : result.census.dialects) result.carved = result.carved || !d.objects.empty();
        return result;
      },
      [&](std::size_t i, FileCensus& result) {
        const std::string& path = files[i].path;
        if (!result.open.ok()) {
          path_errors.failed(path, result.open);
          return;
        }
        if (!result.carved) {
          if (!files[i].sure) {
            skipped.push_back(path);
            return;
          }
          warn_no_objects(path, game_option);
        }
        if (!result.game.note.empty()) {
          bar.erase();
          std::cerr << result.game.note;
        }
        result.census.set_file(taken.size());
        census.merge(result.census);
        taken.push_back(path);
      });
  bar.erase();
  report_skipped(skipped, common);
  std::cout << (vm.count("json") ? stats::json_report(census, taken) : stats::text_report(census, taken));
  return path_errors.any() ? kBadInput : kOk;
}

}  // namespace anvil::cli
