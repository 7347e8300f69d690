// anvilrt export TARGET -o OUT.glb|OUT.gltf [--game ac2|sws|auto] [-j N] [-q] [-v]
// TARGET is opened here as `map` opens it; the scene is made and written by scene/export_scene.hpp.
#include <absl/strings/match.h>
#include <absl/strings/str_format.h>

#include <iostream>
#include <optional>
#include <string>

#include "cli/commands.hpp"
#include "cli/input_view.hpp"
#include "model/counted.hpp"
#include "model/parallel.hpp"
#include "scene/export_scene.hpp"

namespace anvil::cli {

// `anvilrt export --help`.
constexpr const char* kExportUsage =
    "usage: anvilrt export TARGET -o OUT.glb|OUT.gltf [--game GAMES|auto] [-j N] [-q] [-v]\n\n"
    "Every placed instance of TARGET (a level file, a decompressed data file, a .forge archive or a game\n"
    "folder) as a glTF 2.0 scene, for Blender and other 3D tools: a node for each Visual that places\n"
    "instances, named by its key, and under it a node for each instance (a LODSelectorInstance's own\n"
    "matrices, or a direct MeshInstanceData's), named KEY/INDEX, whose matrix is the instance's and whose\n"
    "extras hold \"key\", \"archive\", \"datafile\" and \"index\" (its place\n"
    "/objects/KEY/instance/instances/INDEX, of that data file of that archive). Every instance shows one\n"
    "placeholder mesh, a unit box. The Anvil world is z-up, right-handed, in metres; glTF is y-up: each\n"
    "matrix is turned -90 degrees about x on the way, exactly (Blender turns it back, and shows the\n"
    "engine's x, y, z). An instance whose matrix is not finite is left out (said).\n"
    "OUT.glb: binary glTF (the buffer inside); OUT.gltf: glTF JSON, the buffer embedded. Written atomically.\n"
    "Edit the scene, then anvilrt import turns it into a patch (docs/blender.md).\n"
    "Exit 0: written; 2: bad input.";

int run_export(int argc, char** argv) {
  std::string target_path, out, game_option;
  po::options_description options("options");
  add_game_option(options, game_option);
  add_jobs_option(options, "a level file's parts and data files' objects");
  options.add_options()("output,o", po::value(&out),
                        "write the scene to OUT, .glb (binary) or .gltf (JSON), atomically (- for standard "
                        "output, binary)")(
      "target", po::value(&target_path)->required(),
      "a level file, a decompressed data file, a .forge archive or a game folder (- for standard input)");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv, kExportUsage, options, {{"target", "TARGET"}}, common, vm, code)) return code;
  if (!check_game_option(game_option)) return kBadInput;
  if (out.empty()) {
    error("missing -o OUT (usage: anvilrt export TARGET -o OUT.glb|OUT.gltf)");
    return kBadInput;
  }
  const bool json = absl::EndsWithIgnoreCase(out, ".gltf");
  if (!json && out != "-" && !absl::EndsWithIgnoreCase(out, ".glb")) {
    error(absl::StrFormat("-o %s: name the scene OUT.glb (binary glTF) or OUT.gltf (glTF JSON)", out));
    return kBadInput;
  }
  PathErrors path_errors;
  std::optional<OpenedInput> opened;
  const auto target = level_set_target(target_path, game_option, common, path_errors, opened);
  if (!target) return kBadInput;
  const scene::ExportRun run = scene::export_target(*target, out, json, thread_budget());
  for (const std::string& line : run.recovered) std::cerr << "anvilrt: " << line << "\n";
  if (!run.summary.ok()) {
    error(std::string(run.summary.status().message()));
    return kBadInput;
  }
  if (run.summary->not_finite > 0)
    warning(target_path, absl::StrFormat("%s left out of the scene: a matrix element is not finite",
                                         counted(run.summary->not_finite, "instance")));
  if (!common.quiet && out != "-")
    std::cout << absl::StrFormat("%s: %s of %s\n", out, counted(run.summary->instances, "instance"),
                                 counted(run.summary->visuals, "Visual"));
  return kOk;
}

}  // namespace anvil::cli
