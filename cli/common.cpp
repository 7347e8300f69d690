#include "cli/common.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>

#include "reader/level.hpp"

namespace anvil::cli {

void error(const std::string& what) { std::cerr << "anvilrt: " << what << "\n"; }

void add_game_option(po::options_description& options, std::string& game) {
  options.add_options()("game", po::value(&game)->default_value("auto"),
                        "dialect: ac2 (Assassin's Creed II), sws (Shaun White Skateboarding), or auto "
                        "(the one that carves more bytes)");
}

bool check_game_option(const std::string& option) {
  if (option == "auto" || parse_game(option)) return true;
  error("--game must be ac2, sws or auto, not '" + option + "'");
  return false;
}

std::optional<Game> resolve_game(const std::string& option, std::span<const u8> bytes, const std::string& path,
                                 bool quiet) {
  if (option != "auto") {
    if (!check_game_option(option)) return std::nullopt;
    return parse_game(option);
  }
  Game game = detect_game(bytes);
  if (!quiet) std::cerr << "anvilrt: " << path << ": game auto: picked " << game_name(game) << "\n";
  return game;
}

Source find_source(std::span<const u8> bytes, const std::string& path, bool quiet) {
  Source source = detect_source(bytes);
  if (!quiet && source.kind == SourceKind::data_file)
    std::cerr << "anvilrt: " << path << ": a decompressed data file (" << source.entries << " entries)\n";
  else if (!quiet && source.kind == SourceKind::archive)
    std::cerr << "anvilrt: " << path << ": a forge archive\n";
  return source;
}

std::optional<Game> resolve_game(const std::string& option, std::span<const u8> bytes, const Source& source,
                                 const std::string& path, bool quiet) {
  if (option != "auto" || source.kind != SourceKind::data_file) return resolve_game(option, bytes, path, quiet);
  Game game = detect_game(bytes, source);
  if (!quiet) std::cerr << "anvilrt: " << path << ": game auto: picked " << game_name(game) << "\n";
  return game;
}

std::vector<std::string> collect_files(const std::vector<std::string>& paths, bool& ok) {
  namespace fs = std::filesystem;
  std::vector<std::string> files;
  ok = true;
  for (const std::string& path : paths) {
    std::error_code ec;
    if (fs::is_directory(path, ec)) {
      std::vector<std::string> found;
      for (auto it = fs::recursive_directory_iterator(path, ec); !ec && it != fs::recursive_directory_iterator();
           it.increment(ec))
        if (it->is_regular_file(ec)) found.push_back(it->path().string());
      if (ec) {
        error(path + ": " + ec.message());
        ok = false;
      }
      std::sort(found.begin(), found.end());
      files.insert(files.end(), found.begin(), found.end());
    } else if (path == "-" || fs::exists(path, ec)) {
      // Named on the command line, any readable file counts, not only a regular one: "-" (standard
      // input), /dev/stdin, a FIFO, a process substitution <(…) are read whole (reader/input_file.hpp).
      if (path == "-" && std::count(files.begin(), files.end(), "-") > 0) {
        error("standard input (-) is given twice");
        ok = false;
        continue;
      }
      files.push_back(path);
    } else {
      error(path + ": no such file or folder");
      ok = false;
    }
  }
  return files;
}

bool parse(int argc, char** argv, const char* usage, const po::options_description& options,
           const po::positional_options_description& positional, po::variables_map& vm, int& exit_code) {
  po::options_description all = options;
  all.add_options()("help,h", "show this help");
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(positional).run(), vm);
    if (vm.count("help")) {
      std::cout << usage << "\n" << all << "\n";
      exit_code = kOk;
      return false;
    }
    po::notify(vm);
  } catch (const po::error& e) {
    error(std::string(e.what()) + " (see --help)");
    exit_code = kBadInput;
    return false;
  }
  return true;
}

}  // namespace anvil::cli
