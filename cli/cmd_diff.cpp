// anvilrt diff A B [--game ac2|sws|auto] [-q] [-v]
#include <iostream>

#include "cli/commands.hpp"
#include "patch/diff.hpp"

namespace anvil::cli {

int run_diff(int argc, char** argv) {
  std::string a_path, b_path, game_option;
  po::options_description options("options");
  add_game_option(options, game_option);
  options.add_options()("a", po::value(&a_path)->required(), "the original level file")(
      "b", po::value(&b_path)->required(), "the edited level file");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt diff A B [--game GAMES|auto] [-q] [-v]\n\n"
             "Prints a patch (docs/patches.md) that turns A into B: a test of the old value and a replace\n"
             "with the new one per changed field, in file order. `auto` picks the dialect from A.\n"
             "Exit 0: printed; 1: A and B do not carve into the same objects with the same opaque bytes;\n"
             "2: bad input.",
             options, {{"a", "A"}, {"b", "B"}}, common, vm, code))
    return code;
  if (!check_game_option(game_option)) return kBadInput;

  if (a_path == "-" && b_path == "-") {
    error("A and B cannot both be standard input (-)");
    return kBadInput;
  }
  PathErrors path_errors;
  auto a = open_input(a_path, path_errors);
  auto b = open_input(b_path, path_errors);
  if (!a || !b) return kBadInput;
  warn_damaged_magic(a_path, a->bytes());
  warn_damaged_magic(b_path, b->bytes());
  Game game = resolve_game(game_option, a->bytes(), a_path, common);
  Level la = carve_level(a->bytes(), game);
  Level lb = carve_level(b->bytes(), game);
  if (la.object_count() == 0) warn_no_objects(a_path, game_option);
  if (lb.object_count() == 0) warn_no_objects(b_path, game_option);
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
