// anvilrt gen --game ac2|sws --visuals N --seed S -o FILE [--selectors M] [--near-misses K] [-q] [-v]
// anvilrt gen --forge --game ac2|sws --datafiles N --visuals N --seed S -o OUT.forge [--block-size B]
#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include <iostream>
#include <string>

#include "cli/commands.hpp"
#include "cli/progress_bar.hpp"
#include "gen/forge.hpp"
#include "gen/generator.hpp"
#include "model/counted.hpp"
#include "model/dialect.hpp"
#include "model/forge/variant.hpp"
#include "platform/replace_file.hpp"

namespace anvil::cli {
namespace {

int run_gen_forge(const gen::ForgeOptions& opt, const std::string& out) {
  if (auto s = gen::validate(opt); !s.ok()) {
    error(std::string(s.message()));
    return kBadInput;
  }
  auto record = gen::generate_forge_file(opt, out);
  if (!record.ok()) {
    error(std::string(record.status().message()));
    return kBadInput;
  }
  std::cout << absl::StrFormat("%s: %s, %s\n", out, counted(record->size, "byte"),
                               counted(record->files.size(), "data file"));
  for (const auto& f : record->files)
    std::cout << absl::StrFormat(
        "  %s %s: %s, %s, %s stored, %d decompressed, %s, %s\n", forge::format_id(f.file_id, {opt.version}), f.name,
        forge::compression_name(f.compression), gen::stored_form_name(f.form), counted(f.stored_size, "byte"),
        f.decoded.size(), counted(f.entries, "entry"), counted(f.visuals, "Visual"));
  return kOk;
}

// gen::generate_file(), and its summary.
int run_gen_level(gen::Options opt, const std::string& out, const Common& common) {
  if (auto s = gen::validate(opt); !s.ok()) {
    error(std::string(s.message()));
    return kBadInput;
  }
  // The summary must not mix into the bytes when they go to standard output.
  std::ostream& summary = platform::writes_standard_output(out) ? std::cerr : std::cout;
  ProgressBar bar("gen", common.quiet);
  opt.progress = bar.callback();
  auto record = gen::generate_file(opt, out);
  bar.erase();
  if (!record.ok()) {
    error(std::string(record.status().message()));
    return kBadInput;
  }
  summary << absl::StrFormat("%s: %s, %s, %s", out, game_name(opt.game), counted(record->size, "byte"),
                             counted(record->visuals, "Visual"));
  if (dialect::carves<sws::LODSelector>(opt.game))
    summary << absl::StrFormat(", %s", counted(record->selectors, "LODSelector"));
  summary << absl::StrFormat(", %s carved, %d opaque, %d planted %s\n", counted(record->carved_bytes, "byte"),
                             record->size - record->carved_bytes, record->near_misses.size(),
                             record->near_misses.size() == 1 ? "near miss" : "near misses");
  return kOk;
}

}  // namespace

// `anvilrt gen --help`: the versions and layouts offered are the table's (model/forge/variant_table.hpp).
std::string gen_usage() {
  return absl::StrCat(
      "usage: anvilrt gen --game GAMES --visuals N [--seed S] -o FILE [--selectors M] [--near-misses K] "
      "[-q] [-v]\n"
      "       anvilrt gen --forge --game GAMES --datafiles N --visuals N [--seed S] -o OUT.forge "
      "[--block-size B] [--forge-version ",
      forge::version_choices(), "] [--layout ", forge::layout_choices(),
      "]\n\n"
      "Writes synthetic level data that carves into exactly N Visuals (sws: and M LODSelectors), with\n"
      "the research notes' observed distributions, among opaque filler that holds no object signature.\n"
      "With --forge: a .forge archive (docs/format.md, Containers; version ",
      gen::ForgeOptions{}.version,
      " unless --forge-version) of\n"
      "data files, each an\n"
      "entry table whose 1-3 bodies are such level data, stored compressed (LZO1X, LZO2A; both block-set\n"
      "forms) or plain, in two table sections, with padding between data files; checksums Adler-32\n"
      "from 0 over the stored bytes.");
}

int run_gen(int argc, char** argv) {
  std::string game_option, out, visuals, seed, near_misses, selectors, datafiles, block_size, forge_version, layout;
  po::options_description options("options");
  options.add_options()("game", po::value(&game_option)->required(), ("dialect: " + dialect::game_list()).c_str())(
      "visuals", po::value(&visuals)->required(),
      "the number of Visuals the file carves into (--forge: each entry body of each data file)")(
      "selectors", po::value(&selectors),
      "sws: the number of LODSelectors (default visuals * 221 / 3966, as in the notes' level 01)")(
      "seed", po::value(&seed), "the same seed gives the same bytes on every machine (default 1)")(
      "near-misses", po::value(&near_misses),
      "also plant this many candidates that fail one check each (what stats counts as near misses; default 0)")(
      "forge", "write a .forge archive of data files holding generated level data")(
      "layout", po::value(&layout),
      ("--forge: the data-file layout: " + forge::layouts_with_games(gen::ForgeOptions{}.layout)).c_str())(
      "datafiles", po::value(&datafiles),
      "--forge: data files (default 5), stored in turn as LZO1X in two block sets, LZO2A chunks, plain, LZO2A "
      "block set then chunks, LZO1X chunks")("block-size", po::value(&block_size),
                                             "--forge: decompressed bytes per block or chunk (16..65535; default "
                                             "32768)")(
      "forge-version", po::value(&forge_version),
      absl::StrCat("--forge: the archive version, ", forge::versions_with_games(), "; default ",
                   gen::ForgeOptions{}.version)
          .c_str())("output,o", po::value(&out)->required(), "the file to write (atomically; - for standard output)");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv, gen_usage().c_str(), options,
             {{"game", "--game GAMES", 0}, {"visuals", "--visuals N", 0}, {"output", "-o FILE", 0}}, common, vm, code))
    return code;
  auto game = parse_game(game_option);
  if (!game) {
    error("--game must be " + dialect::game_list() + ", not '" + game_option + "'");
    return kBadInput;
  }
  if (vm.count("forge")) {
    gen::ForgeOptions opt;
    opt.game = *game;
    if (!parse_count("--visuals", visuals, 0, opt.visuals)) return kBadInput;
    if (vm.count("seed") && !parse_count("--seed", seed, 0, opt.seed)) return kBadInput;
    if (vm.count("datafiles") && !parse_count("--datafiles", datafiles, 0, opt.datafiles)) return kBadInput;
    if (vm.count("block-size") && !parse_count("--block-size", block_size, 0, opt.block_size)) return kBadInput;
    u64 version = opt.version;
    if (vm.count("forge-version") && !parse_count("--forge-version", forge_version, 0, version)) return kBadInput;
    opt.version = static_cast<u32>(std::min<u64>(version, 0xFFFFFFFF));
    u64 layout_number = opt.layout;
    if (vm.count("layout") && !parse_count("--layout", layout, 0, layout_number)) return kBadInput;
    opt.layout = static_cast<u8>(std::min<u64>(layout_number, 0xFF));
    return run_gen_forge(opt, out);
  }
  gen::Options opt;
  opt.game = *game;
  if (!parse_count("--visuals", visuals, 0, opt.visuals)) return kBadInput;
  if (vm.count("selectors") && !parse_count("--selectors", selectors, 0, opt.selectors.emplace())) return kBadInput;
  if (vm.count("seed") && !parse_count("--seed", seed, 0, opt.seed)) return kBadInput;
  if (vm.count("near-misses") && !parse_count("--near-misses", near_misses, 0, opt.near_misses)) return kBadInput;
  return run_gen_level(opt, out, common);
}

}  // namespace anvil::cli
