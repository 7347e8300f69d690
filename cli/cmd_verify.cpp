// anvilrt verify PATH... [--game ac2|sws|auto] [--no-json] [--jobs N] [--quiet]
#include <absl/strings/str_format.h>

#include <filesystem>
#include <iostream>
#include <thread>

#include "cli/commands.hpp"
#include "cli/parallel.hpp"
#include "reader/input_file.hpp"
#include "writer/verify.hpp"

namespace anvil::cli {
namespace {

struct FileResult {
  std::string error;  // the file could not be read, or a bad --game
  std::string game;
  VerifyReport report;
};

}  // namespace

int run_verify(int argc, char** argv) {
  std::vector<std::string> paths;
  std::string game_option;
  unsigned jobs = std::thread::hardware_concurrency();
  po::options_description options("options");
  add_game_option(options, game_option);
  options.add_options()("no-json", "only bytes -> model -> bytes (skip bytes -> JSON -> bytes)")(
      "jobs,j", po::value(&jobs)->default_value(jobs), "files verified at once")("quiet,q", "no progress line")(
      "paths", po::value(&paths)->required()->multitoken(), "files or folders (walked recursively)");
  po::positional_options_description positional;
  positional.add("paths", -1);
  po::variables_map vm;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt verify PATH... [--game ac2|sws|auto] [--no-json] [--jobs N] [--quiet]\n\n"
             "For each file: bytes -> model -> bytes and (unless --no-json) bytes -> JSON -> bytes must both\n"
             "give the file back identically, every object re-encoded from its fields. One line per file:\n"
             "the dialect, objects carved, bytes left opaque, candidates that failed a check, the result.\n"
             "Exit 0: all identical; 1: a file differs (its first differing offset is printed); 2: bad input.",
             options, positional, vm, code))
    return code;
  if (!check_game_option(game_option)) return kBadInput;

  bool paths_ok = true;
  std::vector<std::string> files = collect_files(paths, paths_ok);
  std::size_t total = 0;
  for (const auto& f : files) {
    std::error_code ec;  // standard input, a pipe: no size known ahead, counted as 0 for the progress line
    auto size = f == "-" ? 0 : std::filesystem::file_size(f, ec);
    if (!ec) total += size;
  }
  bool json = vm.count("no-json") == 0;
  std::size_t identical = 0, different = 0, unreadable = 0;
  Progress progress("verify", files.size(), total, vm.count("quiet") > 0);
  run_in_order<FileResult>(
      files.size(), jobs,
      [&](std::size_t i) {
        FileResult result;
        auto input = InputFile::open(files[i]);
        if (!input.ok()) {
          result.error = std::string(input.status().message());
        } else {
          Game game = *resolve_game(game_option, input->bytes(), files[i], true);
          result.game = game_name(game);
          result.report = verify_bytes(input->bytes(), game, json);
        }
        progress.file_done(result.report.size);
        return result;
      },
      [&](std::size_t i, FileResult& result) {
        if (!result.error.empty()) {
          error(result.error);
          ++unreadable;
          return;
        }
        const VerifyReport& r = result.report;
        std::cout << absl::StrFormat("%s: %s, %d bytes, %d objects carved, %d bytes opaque, %d near misses: ", files[i],
                                     result.game, r.size, r.objects, r.opaque_bytes, r.near_misses);
        if (r.identical()) {
          std::cout << "identical\n";
          ++identical;
        } else {
          std::cout << absl::StrFormat("DIFFERS at offset 0x%x (%s)\n", *r.first_difference, r.difference);
          ++different;
        }
        std::cout.flush();
      });
  std::cout << absl::StrFormat("verified %d files: %d identical, %d differ, %d unreadable\n", files.size(), identical,
                               different, unreadable);
  if (!paths_ok || unreadable > 0) return kBadInput;
  return different > 0 ? kDiffers : kOk;
}

}  // namespace anvil::cli
