// `anvilrt import`: a glTF scene that `anvilrt export` wrote, edited (in Blender, say), turned back into a
// patch of the input it was exported from (docs/blender.md). Each node whose `extras` name an instance
// (scene/export_scene.hpp) is matched to it; its world matrix, back in the engine's frame (scene/axes.hpp),
// is compared with the instance's:
//  * within kUnchangedTolerance of it: nothing;
//  * otherwise: the instance moves to it (a `replace` of its matrix, rounded to f32);
//  * an instance that no node names: removed;
//  * several nodes that name one instance (Blender keeps `extras` when it duplicates an object): one is the
//    instance (the unchanged one, else the one named KEY/INDEX, else the first), each other a new instance of
//    its Visual at that node's matrix.
// Nodes without such `extras` (cameras, the Visuals' own nodes) are passed over. Refused, naming the node:
// `extras` that name no instance of the input, a matrix the engine's cannot hold (scene/axes.hpp
// unholdable), an instance added or removed in a level file (whose objects cannot change size).
#pragma once

#include <absl/status/statusor.h>

#include <span>
#include <string>
#include <vector>

#include "scene/gltf.hpp"
#include "scene/scene_input.hpp"

namespace anvil::scene {

struct ImportSummary {
  std::size_t moved = 0, added = 0, removed = 0;
  std::vector<std::string> ops;  // the patch's operations, one JSON object each
};

// Reads a scene from its bytes, binary glTF (by its magic) or glTF JSON (its buffers embedded, or files
// beside `path`, read through the platform). Errors: one line naming `path`.
absl::StatusOr<tinygltf::Model> read_scene(std::span<const u8> bytes, const std::string& path);

// The changes `model` makes to `input`, as patch operations. Errors: one line naming `scene_path` and the
// node.
absl::StatusOr<ImportSummary> import_scene(const tinygltf::Model& model, const std::string& scene_path,
                                           SceneInput& input);

// The patch file's text: a JSON array of `ops`, one a line ("[]" when none); with a `mod_name`, a mod
// document (docs/mods.md) of that name holding it.
std::string patch_text(const std::vector<std::string>& ops, const std::string& mod_name, Game game);

// `anvilrt import`: the scene `scene` (read from `scene_path`) onto `target`, written to `output`
// atomically as a patch, or a mod named `mod_name` when that is not empty (a game folder's only).
struct ImportRun {
  std::vector<std::string> recovered;  // a game folder: what opening it finished or rolled back
  absl::StatusOr<ImportSummary> summary;
};
ImportRun import_onto(const view::MapTarget& target, std::span<const u8> scene, const std::string& scene_path,
                      const std::string& output, const std::string& mod_name, unsigned threads);

}  // namespace anvil::scene
