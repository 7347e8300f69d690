// anvilrt verify PATH... [--game ac2|sws|auto] [--no-json] [--jobs N] [--all] [-q] [-v]
#include <absl/strings/str_format.h>

#include <filesystem>
#include <iostream>
#include <thread>

#include "cli/commands.hpp"
#include "cli/parallel.hpp"
#include "cli/progress_bar.hpp"
#include "writer/verify.hpp"

namespace anvil::cli {
namespace {

struct FileResult {
  absl::Status open;  // the file could not be read
  GameChoice game;
  VerifyReport report;
};

}  // namespace

int run_verify(int argc, char** argv) {
  std::vector<std::string> paths;
  std::string game_option, jobs_text;
  po::options_description options("options");
  add_game_option(options, game_option);
  options.add_options()("no-json", "only bytes -> model -> bytes (skip bytes -> JSON -> bytes)")(
      "jobs,j", po::value(&jobs_text), "files verified at once (default: one per core)")(
      "all", "in folders, take every file (default: level-file extensions and files that carve an object)")(
      "paths", po::value(&paths)->required()->multitoken(), "files or folders (walked recursively)");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt verify PATH... [--game ac2|sws|auto] [--no-json] [--jobs N] [--all] [-q] [-v]\n\n"
             "For each file: bytes -> model -> bytes and (unless --no-json) bytes -> JSON -> bytes must both\n"
             "give the file back identically, every object re-encoded from its fields. One line per file:\n"
             "the dialect, objects carved, bytes left opaque, candidates that failed a check, the result.\n"
             "Folders are walked for level files (README); a file that carves no object is a warning.\n"
             "Exit 0: all identical; 1: a file differs (its first differing offset is printed); 2: bad input.",
             options, {{"paths", "PATH", -1}}, common, vm, code))
    return code;
  if (!check_game_option(game_option)) return kBadInput;
  u64 jobs = std::max(1u, std::thread::hardware_concurrency());
  if (vm.count("jobs") && !parse_count("--jobs", jobs_text, 1, jobs)) return kBadInput;

  PathErrors path_errors;
  std::vector<WalkedFile> files = collect_files(paths, vm.count("all") > 0, path_errors);
  std::size_t total = 0;
  for (const auto& f : files) {
    std::error_code ec;
    auto size = std::filesystem::file_size(f.path, ec);
    if (!ec) total += size;
  }
  bool json = vm.count("no-json") == 0;
  std::size_t identical = 0, different = 0, skipped_count = 0;
  std::vector<std::string> skipped;
  ProgressBar bar("verify", common.quiet);
  run_in_order<FileResult>(
      files.size(), static_cast<unsigned>(std::min<u64>(jobs, 1024)),
      [&](std::size_t i) {
        FileResult result;
        auto input = InputFile::open(files[i].path);
        if (!input.ok()) {
          result.open = input.status();
          return result;
        }
        result.game = choose_game(game_option, input->bytes(), files[i].path, common);
        Game game = result.game.game;
        std::size_t reported = 0;  // this file's share of the bar
        result.report = verify_bytes(input->bytes(), game, json, [&](std::size_t done, std::size_t) {
          bar.add(done - reported, total);
          reported = done;
        });
        return result;
      },
      [&](std::size_t i, FileResult& result) {
        bar.erase();
        const std::string& path = files[i].path;
        if (!result.open.ok()) {
          path_errors.failed(path, result.open);
          return;
        }
        const VerifyReport& r = result.report;
        if (r.objects == 0 && r.identical()) {
          if (!files[i].sure) {
            skipped.push_back(path);
            ++skipped_count;
            return;
          }
          warn_no_objects(path, game_option);
        }
        std::cerr << result.game.note;
        std::cout << absl::StrFormat("%s: %s, %d bytes, %d objects carved, %d bytes opaque, %d near misses: ", path,
                                     game_name(result.game.game), r.size, r.objects, r.opaque_bytes, r.near_misses);
        if (r.identical()) {
          std::cout << "identical\n";
          ++identical;
        } else {
          std::cout << absl::StrFormat("DIFFERS at offset 0x%x (%s)\n", *r.first_difference, r.difference);
          ++different;
        }
        std::cout.flush();
      });
  bar.erase();
  report_skipped(skipped, common);
  std::cout << absl::StrFormat("verified %d files: %d identical, %d differ, %d missing, %d unreadable\n",
                               identical + different, identical, different, path_errors.missing_count(),
                               path_errors.unreadable_count());
  if (path_errors.any()) return kBadInput;
  return different > 0 ? kDiffers : kOk;
}

}  // namespace anvil::cli
