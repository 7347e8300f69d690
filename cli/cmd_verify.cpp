// anvilrt verify PATH... [--game ac2|sws|auto] [--no-json]
#include <absl/strings/str_format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "reader/input_file.hpp"
#include "writer/verify.hpp"

namespace anvil::cli {

int run_verify(int argc, char** argv) {
  std::vector<std::string> paths;
  std::string game_option;
  po::options_description options("options");
  add_game_option(options, game_option);
  options.add_options()("no-json", "only bytes -> model -> bytes (skip bytes -> JSON -> bytes)")(
      "paths", po::value(&paths)->required()->multitoken(), "files or folders (walked recursively)");
  po::positional_options_description positional;
  positional.add("paths", -1);
  po::variables_map vm;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt verify PATH... [--game ac2|sws|auto] [--no-json]\n\n"
             "For each file: bytes -> model -> bytes and (unless --no-json) bytes -> JSON -> bytes must both\n"
             "give the file back identically, every object re-encoded from its fields.\n"
             "Exit 0: all identical; 1: a file differs (its first differing offset is printed); 2: bad input.",
             options, positional, vm, code))
    return code;

  bool paths_ok = true;
  std::vector<std::string> files = collect_files(paths, paths_ok);
  std::size_t identical = 0, different = 0, unreadable = 0;
  for (const std::string& file : files) {
    auto input = InputFile::open(file);
    if (!input.ok()) {
      error(std::string(input.status().message()));
      ++unreadable;
      continue;
    }
    auto game = resolve_game(game_option, input->bytes(), file, true);
    if (!game) return kBadInput;
    VerifyReport r = verify_bytes(input->bytes(), *game, vm.count("no-json") == 0);
    std::cout << absl::StrFormat("%s: %s, %d bytes, %d objects carved, %d bytes opaque: ", file, game_name(*game),
                                 r.size, r.objects, r.opaque_bytes);
    if (r.identical()) {
      std::cout << "identical\n";
      ++identical;
    } else {
      std::cout << absl::StrFormat("DIFFERS at offset 0x%x (%s)\n", *r.first_difference, r.difference);
      ++different;
    }
  }
  std::cout << absl::StrFormat("verified %d files: %d identical, %d differ, %d unreadable\n", files.size(), identical,
                               different, unreadable);
  if (!paths_ok || unreadable > 0) return kBadInput;
  return different > 0 ? kDiffers : kOk;
}

}  // namespace anvil::cli
