// anvilrt dump FILE [--game ac2|sws|auto] [--full] [-o OUT]
#include <cstdio>

#include "cli/commands.hpp"
#include "reader/input_file.hpp"
#include "writer/atomic_file.hpp"
#include "writer/dump.hpp"

namespace anvil::cli {

int run_dump(int argc, char** argv) {
  std::string file, out, game_option;
  po::options_description options("options");
  add_game_option(options, game_option);
  options.add_options()("full", "add \"spans\": every opaque span (base64) and object in file order, as build needs")(
      "output,o", po::value(&out), "write to OUT (atomically; - is standard output) instead of standard output")(
      "file", po::value(&file)->required(), "the level file (- for standard input)");
  po::positional_options_description positional;
  positional.add("file", 1);
  po::variables_map vm;
  int code = kOk;
  if (!parse(argc, argv, "usage: anvilrt dump FILE [--game ac2|sws|auto] [--full] [-o OUT]", options, positional, vm,
             code))
    return code;

  auto input = InputFile::open(file);
  if (!input.ok()) {
    error(std::string(input.status().message()));
    return kBadInput;
  }
  auto game = resolve_game(game_option, input->bytes(), file);
  if (!game) return kBadInput;
  DumpOptions dump{*game, vm.count("full") > 0};
  if (out.empty()) return dump_json(input->bytes(), dump, stdout) ? kOk : kBadInput;
  AtomicFile output;
  if (auto s = output.open(out); !s.ok()) {
    error(std::string(s.message()));
    return kBadInput;
  }
  if (!dump_json(input->bytes(), dump, output.stream())) {
    error(out + ": cannot write");
    return kBadInput;
  }
  if (auto s = output.commit(); !s.ok()) {
    error(std::string(s.message()));
    return kBadInput;
  }
  return kOk;
}

}  // namespace anvil::cli
