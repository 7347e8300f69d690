// `anvilrt export`: the placed instances of a level set as a glTF 2.0 scene (docs/blender.md). A node per
// Visual that places instances, named by its key, and under it a node per instance, named KEY/INDEX, whose
// `matrix` is the instance's (in glTF's frame: scene/axes.hpp) and whose `extras` name it: "key",
// "archive", "datafile" (their names in the set, "" where the input has none) and "index" (N of
// …/instances/N). Every instance node shows the one placeholder mesh, a unit box about its origin (the
// format keeps a Visual's bounds opaque, so no size of its own is known). Written through tinygltf, as
// binary glTF (.glb) or as JSON with the buffer embedded (.gltf), atomically.
#pragma once

#include <absl/status/statusor.h>

#include <string>

#include "scene/gltf.hpp"
#include "scene/scene_input.hpp"

namespace anvil::scene {

struct ExportSummary {
  std::size_t visuals = 0, instances = 0;
  std::size_t not_finite = 0;  // instances left out: a matrix element not finite, which glTF cannot hold
};

// Names a node's `extras` members.
inline constexpr const char* kExtrasKey = "key";
inline constexpr const char* kExtrasArchive = "archive";
inline constexpr const char* kExtrasDatafile = "datafile";
inline constexpr const char* kExtrasIndex = "index";

// Whether an instance of this matrix goes into the scene (every element finite).
bool exportable(const Matrix& m);

// The scene of `input`'s instances.
tinygltf::Model scene_model(const SceneInput& input, ExportSummary& summary);

// Writes the scene of `input` to `output` ("-": standard output), binary unless `json`. Errors: one line
// naming the output.
absl::StatusOr<ExportSummary> export_scene(const SceneInput& input, const std::string& output, bool json);

// `anvilrt export`: opens `target` (scene/scene_input.hpp) and writes its scene.
struct ExportRun {
  std::vector<std::string> recovered;  // a game folder: what opening it finished or rolled back
  absl::StatusOr<ExportSummary> summary;
};
ExportRun export_target(const view::MapTarget& target, const std::string& output, bool json, unsigned threads);

}  // namespace anvil::scene
