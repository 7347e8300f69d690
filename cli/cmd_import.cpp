// anvilrt import SCENE --onto TARGET -o PATCH.json [--mod NAME] [--game ac2|sws|auto] [-j N] [-q] [-v]
// The scene and TARGET are read here; scene/import_scene.hpp matches the scene's nodes to TARGET's
// instances and writes the patch.
#include <absl/strings/ascii.h>
#include <absl/strings/str_format.h>

#include <iostream>
#include <optional>
#include <string>

#include "cli/commands.hpp"
#include "cli/input_view.hpp"
#include "model/counted.hpp"
#include "model/parallel.hpp"
#include "scene/axes.hpp"
#include "scene/import_scene.hpp"

namespace anvil::cli {

namespace {

// A mod's name as docs/mods.md allows it: 1 to 64 letters, digits, '.', '_' or '-', not starting with '.'.
bool mod_name_ok(const std::string& name) {
  if (name.empty() || name.size() > 64 || name.front() == '.') return false;
  for (char c : name)
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '_' && c != '-') return false;
  return true;
}

}  // namespace

// `anvilrt import --help`, its tolerance (%g) scene::kUnchangedTolerance.
constexpr const char* kImportUsageFormat =
    "usage: anvilrt import SCENE --onto TARGET -o PATCH.json [--mod NAME] [--game GAMES|auto] [-j N] [-q] [-v]\n\n"
    "The patch that makes TARGET what SCENE shows: SCENE is a glTF scene (.glb or .gltf) that anvilrt\n"
    "export wrote of TARGET, edited since (in Blender, say: docs/blender.md). Each node whose extras name\n"
    "an instance (key, archive, datafile, index) is compared with it, its matrix taken back to the\n"
    "engine's axes (glTF's y-up turned +90 degrees about x to Anvil's z-up):\n"
    "  a node moved (an element of its matrix off by more than %g, relative to the larger of 1 and the\n"
    "  element's size): a replace of the instance's matrix, rounded to f32 (and of each LOD slot's that\n"
    "  was the same matrix);\n"
    "  an instance no node names (deleted): its removal from the Visual's instance lists;\n"
    "  a node that names the same instance as another (Blender keeps extras when it duplicates): a new\n"
    "  instance of that Visual (an add to its instance lists).\n"
    "The scene exported and imported untouched gives [] exactly. Refused, naming the node: extras that\n"
    "name no instance of TARGET, a transform no instance matrix holds (shear, projection, a zero or\n"
    "beyond-f32 scale), an instance deleted or duplicated in a level file (whose objects cannot change\n"
    "size). Nodes without such extras are passed over.\n"
    "--mod NAME: write a mod (docs/mods.md) of that name instead of a bare patch; TARGET must be a game\n"
    "folder.\n"
    "Exit 0: written; 2: bad input or a refused node.";

int run_import(int argc, char** argv) {
  std::string scene_path, target_path, out, mod_name, game_option;
  po::options_description options("options");
  add_game_option(options, game_option);
  add_jobs_option(options, "a level file's parts and data files' objects");
  options.add_options()("onto", po::value(&target_path),
                        "TARGET: the level file, data file, .forge archive or game folder the scene was "
                        "exported from")("output,o", po::value(&out),
                                         "write the patch to PATCH.json, atomically (- for standard output)")(
      "mod", po::value(&mod_name), "NAME: write a mod of this name (a game folder's)")(
      "scene", po::value(&scene_path)->required(), "the glTF scene, .glb or .gltf (- for standard input)");
  po::variables_map vm;
  Common common;
  int code = kOk;
  static const std::string usage = absl::StrFormat(kImportUsageFormat, scene::kUnchangedTolerance);
  if (!parse(argc, argv, usage.c_str(), options, {{"scene", "SCENE"}, {"onto", "--onto TARGET", 0}}, common, vm, code))
    return code;
  if (!check_game_option(game_option)) return kBadInput;
  if (target_path.empty()) {
    error("missing --onto TARGET (usage: anvilrt import SCENE --onto TARGET -o PATCH.json)");
    return kBadInput;
  }
  if (out.empty()) {
    error("missing -o PATCH.json (usage: anvilrt import SCENE --onto TARGET -o PATCH.json)");
    return kBadInput;
  }
  if (vm.count("mod") && !mod_name_ok(mod_name)) {
    error(
        absl::StrFormat("--mod %s: a mod's name has 1 to 64 letters, digits, '.', '_' or '-', and does not "
                        "start with '.'",
                        mod_name));
    return kBadInput;
  }
  if (scene_path == "-" && target_path == "-") {
    error("SCENE and TARGET cannot both be standard input (-)");
    return kBadInput;
  }
  PathErrors path_errors;
  auto scene = open_input(scene_path, path_errors);
  if (!scene) return kBadInput;
  std::optional<OpenedInput> opened;
  const auto target = level_set_target(target_path, game_option, common, path_errors, opened);
  if (!target) return kBadInput;
  const scene::ImportRun run = scene::import_onto(*target, scene->bytes(), scene_path, out, mod_name, thread_budget());
  for (const std::string& line : run.recovered) std::cerr << "anvilrt: " << line << "\n";
  if (!run.summary.ok()) {
    error(std::string(run.summary.status().message()));
    return kBadInput;
  }
  if (!common.quiet && out != "-")
    std::cout << absl::StrFormat("%s: %s (%d moved, %d added, %d removed)\n", out,
                                 counted(run.summary->ops.size(), "operation"), run.summary->moved, run.summary->added,
                                 run.summary->removed);
  return kOk;
}

}  // namespace anvil::cli
