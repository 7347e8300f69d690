// anvilrt map FILE [--patch PATCH...] [--objects KEY...] -o OUT [--png] [--width W] [--height H]
//             [--colours N] [--game ac2|sws|auto] [-j N] [-q] [-v]
// FILE and the patches are read here, the map drawn and written by view/map_run.hpp, its summary printed here.
#include <absl/status/status.h>
#include <absl/strings/str_format.h>

#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli/archive_input.hpp"
#include "cli/commands.hpp"
#include "cli/input_view.hpp"
#include "model/counted.hpp"
#include "model/parallel.hpp"
#include "pipeline/game_folder.hpp"
#include "view/map_file.hpp"
#include "view/map_run.hpp"

namespace anvil::cli {

namespace {

void report(const view::MapSummary& summary, const std::string& out, bool patched, const Common& common) {
  if (common.quiet || out == "-") return;
  std::string line = absl::StrFormat("%s: %s", out, counted(summary.instances, "instance"));
  if (patched)
    line += absl::StrFormat(" after the patches (%d moved, %d added, %d removed)", summary.moved, summary.added,
                            summary.removed);
  if (summary.unplaced) line += absl::StrFormat("; %d not placed (x or y not finite)", summary.unplaced);
  std::cout << line << "\n";
}

}  // namespace

// `anvilrt map --help`.
constexpr const char* kMapUsage =
    "usage: anvilrt map FILE -o OUT [--patch PATCH...] [--objects KEY...] [--png] [--width W] [--height H]\n"
    "                   [--colours N] [--game GAMES|auto] [-j N] [-q] [-v]\n\n"
    "A top-down map of every placed instance: each instance matrix of a Visual (a LODSelectorInstance's\n"
    "own, or a direct MeshInstanceData's; its LOD slots hold the same instances) drawn at its translation\n"
    "(matrix elements 12, 13, 14: x, y, z). The Anvil world is z-up: the map shows x to the right and y\n"
    "up, with axes, a scale bar and a legend of what the instances show (the Visual's Mesh or LODSelector;\n"
    "the N most common get colours of their own, the rest \"other\").\n"
    "SVG (the default): one element per instance with data-key=\"KEY\" and data-index=\"N\" (its place\n"
    "/objects/KEY/instance/instances/N in the dump) and a <title> naming them, shown on hover. The marks'\n"
    "group states the frame: level (x, y) is at (data-origin-x + data-scale*x, data-origin-y -\n"
    "data-scale*y). Instances whose x or y is not finite are listed in a row under the plot.\n"
    "With --patch: before and after. A moved instance is an arrow (class \"moved\") from where it was;\n"
    "added and removed ones are ringed and dashed circles (classes \"added\", \"removed\"); the rest\n"
    "are faded (\"kept\"). An object whose count of instances changed pairs its instances by position.\n"
    "The elements carry the indices after the patches, a removed one its index before.\n"
    "--png: the same picture as PNG, W x H pixels.\n"
    "Of a .forge archive: every data file; a mark's title names its data file. Of a game folder (its\n"
    ".forge archives, docs/game-folders.md): every data file of every archive, named A.forge/NAME; its\n"
    "patches are the folder's, as anvilrt patch DIR takes each (a mod document or a mod package too),\n"
    "applied in order.\n"
    "Exit 0: written; 1: a patch's test failed or a bulk operation matched nothing; 2: bad input.";

int run_map(int argc, char** argv) {
  std::string file, out, game_option, width_text = "1200", height_text = "900", colours_text = "10";
  std::vector<std::string> patches, objects;
  po::options_description options("options");
  add_game_option(options, game_option);
  add_jobs_option(options, "a level file's parts, data files' objects, the map's marks and its text");
  options.add_options()("output,o", po::value(&out), "write the map to OUT (atomically; - for standard output)")(
      "patch", po::value(&patches)->multitoken(),
      "PATCH...: draw the level before and after these patches, applied in order as anvilrt patch applies "
      "each (nothing is written but the map)")("objects", po::value(&objects)->multitoken(),
                                               "KEY...: draw only the instances of these objects (keys as dump "
                                               "prints them)")("png", "write a PNG picture instead of SVG")(
      "width", po::value(&width_text), "W: the picture's width (1200)")("height", po::value(&height_text),
                                                                        "H: the picture's height (900)")(
      "colours", po::value(&colours_text),
      "N: the most common shown objects with a colour of their own (10, at most 12)")(
      "file", po::value(&file)->required(),
      "a level file, a decompressed data file, a .forge archive or a game folder (- for standard input)");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv, kMapUsage, options, {{"file", "FILE"}}, common, vm, code)) return code;
  if (!check_game_option(game_option)) return kBadInput;
  if (out.empty()) {
    error("missing -o OUT (usage: anvilrt map FILE -o OUT [--patch PATCH...])");
    return kBadInput;
  }
  u64 width = 0, height = 0, colours = 0;
  if (!parse_count("--width", width_text, 64, width) || !parse_count("--height", height_text, 64, height) ||
      !parse_count("--colours", colours_text, 0, colours))
    return kBadInput;
  if (width > 16384 || height > 16384) {
    error(absl::StrFormat("--width %d --height %d: at most 16384 each", width, height));
    return kBadInput;
  }

  PathErrors path_errors;
  std::vector<view::NamedPatch> named;
  for (const std::string& p : patches) {
    if (p == "-" && file == "-") {
      error("FILE and PATCH cannot both be standard input (-)");
      return kBadInput;
    }
    auto text = read_patch(p, path_errors, file);
    if (!text) return kBadInput;
    named.push_back({p, std::move(*text)});
  }
  view::MapRequest request{{static_cast<unsigned>(width), static_cast<unsigned>(height), objects, colours},
                           vm.count("png") > 0,
                           out,
                           thread_budget()};
  std::optional<OpenedInput> opened;
  const auto target = level_set_target(file, game_option, common, path_errors, opened);
  if (!target) return kBadInput;
  const view::MapRun run = view::draw_map(*target, named, request);
  for (const std::string& line : run.recovered) std::cerr << "anvilrt: " << line << "\n";
  if (!run.summary.ok()) {
    error(std::string(run.summary.status().message()));
    return run.summary.status().code() == absl::StatusCode::kFailedPrecondition ? kDiffers : kBadInput;
  }
  report(*run.summary, out, !patches.empty(), common);
  return kOk;
}

}  // namespace anvil::cli
