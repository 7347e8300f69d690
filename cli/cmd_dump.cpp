// anvilrt dump FILE [--game ac2|sws|auto] [--full] [-o OUT] [-q] [-v]
#include <cstdio>

#include "cli/commands.hpp"
#include "cli/progress_bar.hpp"
#include "writer/atomic_file.hpp"
#include "writer/dump.hpp"

namespace anvil::cli {

int run_dump(int argc, char** argv) {
  std::string file, out, game_option;
  po::options_description options("options");
  add_game_option(options, game_option);
  options.add_options()("full", "add \"spans\": every opaque span (base64) and object in file order, as build needs")(
      "output,o", po::value(&out), "write to OUT (atomically) instead of standard output")(
      "file", po::value(&file)->required(), "the level file");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv, "usage: anvilrt dump FILE [--game ac2|sws|auto] [--full] [-o OUT] [-q] [-v]", options,
             {{"file", "FILE"}}, common, vm, code))
    return code;
  if (!check_game_option(game_option)) return kBadInput;

  PathErrors path_errors;
  auto input = open_input(file, path_errors);
  if (!input) return kBadInput;
  Game game = resolve_game(game_option, input->bytes(), file, common, true);
  ProgressBar bar("dump", common.quiet);
  std::size_t objects = 0;
  DumpOptions dump{game, vm.count("full") > 0};
  // How many objects the dump holds is known only once it is written: the warning follows it.
  auto warn = [&] {
    bar.erase();
    if (objects == 0) warn_no_objects(file, game_option);
  };
  if (out.empty()) {
    bool ok = dump_json(input->bytes(), dump, stdout, bar.callback(), &objects);
    if (ok) warn();
    return ok ? kOk : kBadInput;
  }
  AtomicFile output;
  if (auto s = output.open(out); !s.ok()) {
    error(std::string(s.message()));
    return kBadInput;
  }
  if (!dump_json(input->bytes(), dump, output.stream(), bar.callback(), &objects)) {
    error(out + ": cannot write");
    return kBadInput;
  }
  if (auto s = output.commit(); !s.ok()) {
    error(std::string(s.message()));
    return kBadInput;
  }
  warn();
  return kOk;
}

}  // namespace anvil::cli
