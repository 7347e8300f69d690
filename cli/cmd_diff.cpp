// anvilrt diff A B [--game ac2|sws|auto]
#include <iostream>

#include "cli/commands.hpp"
#include "patch/diff.hpp"
#include "reader/input_file.hpp"

namespace anvil::cli {

int run_diff(int argc, char** argv) {
  std::string a_path, b_path, game_option;
  po::options_description options("options");
  add_game_option(options, game_option);
  options.add_options()("a", po::value(&a_path)->required(), "the original level file")(
      "b", po::value(&b_path)->required(), "the edited level file");
  po::positional_options_description positional;
  positional.add("a", 1).add("b", 1);
  po::variables_map vm;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt diff A B [--game ac2|sws|auto]\n\n"
             "Prints a patch (FORMAT.md section 5) that turns A into B: a test of the old value and a replace\n"
             "with the new one per changed field, in file order. `auto` picks the dialect from A.\n"
             "Exit 0: printed; 1: A and B do not carve into the same objects with the same opaque bytes;\n"
             "2: bad input.",
             options, positional, vm, code))
    return code;

  if (a_path == "-" && b_path == "-") {
    error("A and B cannot both be standard input (-)");
    return kBadInput;
  }
  auto a = InputFile::open(a_path);
  if (!a.ok()) {
    error(std::string(a.status().message()));
    return kBadInput;
  }
  auto b = InputFile::open(b_path);
  if (!b.ok()) {
    error(std::string(b.status().message()));
    return kBadInput;
  }
  auto game = resolve_game(game_option, a->bytes(), a_path, true);
  if (!game) return kBadInput;
  Level la = carve_level(a->bytes(), *game);
  Level lb = carve_level(b->bytes(), *game);
  patch::DiffOutcome outcome = patch::diff_levels(la, lb);
  if (outcome.error) {
    error(a_path + " and " + b_path + ": " + *outcome.error);
    return kDiffers;
  }
  std::cout << patch::diff_to_patch_json(outcome.ops);
  std::cout.flush();
  return std::cout ? kOk : kBadInput;
}

}  // namespace anvil::cli
