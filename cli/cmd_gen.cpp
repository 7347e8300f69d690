// anvilrt gen --game ac2|sws --visuals N --seed S -o FILE [--selectors M] [--near-misses K] [-q] [-v]
#include <absl/strings/str_format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "cli/progress_bar.hpp"
#include "gen/generator.hpp"

namespace anvil::cli {

int run_gen(int argc, char** argv) {
  std::string game_option, out, visuals, seed, near_misses, selectors;
  po::options_description options("options");
  options.add_options()("game", po::value(&game_option)->required(), "dialect: ac2 or sws")(
      "visuals", po::value(&visuals)->required(), "the number of Visuals the file carves into")(
      "selectors", po::value(&selectors),
      "sws: the number of LODSelectors (default visuals * 221 / 3966, as in the notes' level 01)")(
      "seed", po::value(&seed), "the same seed gives the same bytes on every machine (default 1)")(
      "near-misses", po::value(&near_misses),
      "also plant this many candidates that fail one check each (what stats counts as near misses; default 0)")(
      "output,o", po::value(&out)->required(), "the level file to write (atomically)");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt gen --game ac2|sws --visuals N [--seed S] -o FILE [--selectors M] [--near-misses K] "
             "[-q] [-v]\n\n"
             "Writes synthetic level data that carves into exactly N Visuals (sws: and M LODSelectors), with\n"
             "the research notes' observed distributions, among opaque filler that holds no object signature.",
             options, {{"game", "--game ac2|sws", 0}, {"visuals", "--visuals N", 0}, {"output", "-o FILE", 0}}, common,
             vm, code))
    return code;
  auto game = parse_game(game_option);
  if (!game) {
    error("--game must be ac2 or sws, not '" + game_option + "'");
    return kBadInput;
  }
  gen::Options opt;
  opt.game = *game;
  if (!parse_count("--visuals", visuals, 0, opt.visuals)) return kBadInput;
  if (vm.count("selectors") && !parse_count("--selectors", selectors, 0, opt.selectors.emplace())) return kBadInput;
  if (vm.count("seed") && !parse_count("--seed", seed, 0, opt.seed)) return kBadInput;
  if (vm.count("near-misses") && !parse_count("--near-misses", near_misses, 0, opt.near_misses)) return kBadInput;
  if (auto s = gen::validate(opt); !s.ok()) {
    error(std::string(s.message()));
    return kBadInput;
  }
  ProgressBar bar("gen", common.quiet);
  opt.progress = bar.callback();
  auto record = gen::generate_file(opt, out);
  bar.erase();
  if (!record.ok()) {
    error(std::string(record.status().message()));
    return kBadInput;
  }
  std::cout << absl::StrFormat("%s: %s, %d bytes, %d Visuals", out, game_name(*game), record->size, record->visuals);
  if (*game == Game::sws) std::cout << absl::StrFormat(", %d LODSelectors", record->selectors);
  std::cout << absl::StrFormat(", %d bytes carved, %d opaque, %d planted near misses\n", record->carved_bytes,
                               record->size - record->carved_bytes, record->near_misses.size());
  return kOk;
}

}  // namespace anvil::cli
