// anvilrt stats PATH... [--game ac2|sws|auto] [--json]
// Files are carved in parallel on all cores and their censuses merged in file order.
#include <absl/strings/str_format.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <iostream>
#include <mutex>
#include <optional>
#include <thread>

#include "cli/commands.hpp"
#include "reader/input_file.hpp"
#include "stats/census.hpp"
#include "stats/report.hpp"

namespace anvil::cli {

int run_stats(int argc, char** argv) {
  std::vector<std::string> paths;
  std::string game_option;
  po::options_description options("options");
  add_game_option(options, game_option);
  options.add_options()("json", "print the same numbers as JSON")("paths", po::value(&paths)->required()->multitoken(),
                                                                  "files or folders (walked recursively)");
  po::positional_options_description positional;
  positional.add("paths", -1);
  po::variables_map vm;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt stats PATH... [--game ac2|sws|auto] [--json]\n\n"
             "Census per dialect: objects by class, bytes carved vs opaque, the value counts of the fields\n"
             "the research notes count, and the near misses (candidates that failed a check, by check).",
             options, positional, vm, code))
    return code;
  if (!check_game_option(game_option)) return kBadInput;

  bool paths_ok = true;
  std::vector<std::string> files = collect_files(paths, paths_ok);
  std::vector<stats::Census> censuses(files.size());
  std::vector<std::string> errors(files.size());
  std::atomic<std::size_t> next{0}, done{0};
  std::atomic<u64> bytes_done{0};
  auto worker = [&] {
    for (std::size_t i; (i = next.fetch_add(1)) < files.size();) {
      auto input = InputFile::open(files[i]);
      if (!input.ok()) {
        errors[i] = std::string(input.status().message());
      } else {
        auto game = resolve_game(game_option, input->bytes(), files[i], true);
        censuses[i].add_file(input->bytes(), *game, i);
        bytes_done += input->bytes().size();
      }
      ++done;
    }
  };
  std::size_t n_workers =
      std::max<std::size_t>(1, std::min<std::size_t>(std::thread::hardware_concurrency(), files.size()));
  std::vector<std::thread> workers;
  for (std::size_t w = 0; w < n_workers; ++w) workers.emplace_back(worker);

  // A progress line on a terminal, once the job has taken over a second.
  bool tty = ::isatty(2) != 0;
  auto start = std::chrono::steady_clock::now();
  bool shown = false;
  std::string last;
  auto last_shown = start;
  while (done.load() < files.size()) {
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
    auto now = std::chrono::steady_clock::now();
    if (!tty || now - start < std::chrono::seconds(1) || now - last_shown < std::chrono::milliseconds(250)) continue;
    std::string line = absl::StrFormat("anvilrt stats: %d of %d files done, %s MB", done.load(), files.size(),
                                       stats::grouped(bytes_done.load() >> 20));
    if (line == last) continue;
    std::cerr << "\r" << line << std::flush;
    last = line;
    last_shown = now;
    shown = true;
  }
  for (std::thread& t : workers) t.join();
  if (shown) std::cerr << "\r\033[K" << std::flush;

  stats::Census census;
  bool unreadable = false;
  for (std::size_t i = 0; i < files.size(); ++i) {
    if (!errors[i].empty()) {
      error(errors[i]);
      unreadable = true;
      continue;
    }
    census.merge(censuses[i]);
  }
  std::cout << (vm.count("json") ? stats::json_report(census, files) : stats::text_report(census, files));
  return paths_ok && !unreadable ? kOk : kBadInput;
}

}  // namespace anvil::cli
