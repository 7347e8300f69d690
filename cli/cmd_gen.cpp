// anvilrt gen --game ac2|sws --visuals N --seed S -o FILE [--selectors M] [--near-misses K]
#include <absl/strings/str_format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "gen/generator.hpp"
#include "writer/output_target.hpp"

namespace anvil::cli {

int run_gen(int argc, char** argv) {
  std::string game_option, out;
  u64 visuals = 0, seed = 1, near_misses = 0;
  u64 selectors = 0;
  po::options_description options("options");
  options.add_options()("game", po::value(&game_option)->required(), "dialect: ac2 or sws")(
      "visuals", po::value(&visuals)->required(), "the number of Visuals the file carves into")(
      "selectors", po::value(&selectors),
      "sws: the number of LODSelectors (default visuals * 221 / 3966, as in the notes' level 01)")(
      "seed", po::value(&seed)->default_value(1), "the same seed gives the same bytes on every machine")(
      "near-misses", po::value(&near_misses)->default_value(0),
      "also plant this many candidates that fail one check each (what stats counts as near misses)")(
      "output,o", po::value(&out)->required(), "the level file to write (atomically; - for standard output)");
  po::positional_options_description positional;
  po::variables_map vm;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt gen --game ac2|sws --visuals N --seed S -o FILE [--selectors M] [--near-misses K]\n\n"
             "Writes synthetic level data that carves into exactly N Visuals (sws: and M LODSelectors), with\n"
             "the research notes' observed distributions, among opaque filler that holds no object signature.",
             options, positional, vm, code))
    return code;
  auto game = parse_game(game_option);
  if (!game) {
    error("--game must be ac2 or sws, not '" + game_option + "'");
    return kBadInput;
  }
  gen::Options opt;
  opt.game = *game;
  opt.visuals = visuals;
  if (vm.count("selectors")) opt.selectors = selectors;
  opt.seed = seed;
  opt.near_misses = near_misses;
  if (auto s = gen::validate(opt); !s.ok()) {
    error(std::string(s.message()));
    return kBadInput;
  }
  // The summary must not mix into the bytes when they go to standard output.
  std::ostream& summary = writes_standard_output(out) ? std::cerr : std::cout;
  auto record = gen::generate_file(opt, out);
  if (!record.ok()) {
    error(std::string(record.status().message()));
    return kBadInput;
  }
  summary << absl::StrFormat("%s: %s, %d bytes, %d Visuals", out, game_name(*game), record->size, record->visuals);
  if (*game == Game::sws) summary << absl::StrFormat(", %d LODSelectors", record->selectors);
  summary << absl::StrFormat(", %d bytes carved, %d opaque, %d planted near misses\n", record->carved_bytes,
                             record->size - record->carved_bytes, record->near_misses.size());
  return kOk;
}

}  // namespace anvil::cli
