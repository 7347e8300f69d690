// The export and import rows (bench/scene_rows.hpp).
#include "bench/scene_rows.hpp"

#include <cstdio>
#include <filesystem>
#include <sstream>
#include <vector>

#include "bench/forge_rows.hpp"
#include "reader/input_file.hpp"
#include "scene/gltf.hpp"
#include "scene/import_scene.hpp"

namespace anvil::bench {
namespace {

void keep_faster(CliRun& best, const CliRun& run) {
  if (run.wall > 0 && (best.wall < 0 || run.wall < best.wall)) best = run;
}

void row(const char* what, const CliRun& a, const char* other, const CliRun& b, unsigned cores, int runs) {
  if (a.wall <= 0 || b.wall <= 0) {
    std::printf("%s: a command failed\n", what);
    return;
  }
  std::printf(
      "%s (the binary, %u cores, fastest of %d): %.3f s wall, %.3f s CPU, peak RSS %.0f MiB; %s %.3f s wall, "
      "%.3f s CPU, peak RSS %.0f MiB: %.2f x by wall time, %.2f x by CPU time (issue-51 target: 2)\n",
      what, cores, runs, a.wall, a.cpu, a.peak_rss_kib / 1024.0, other, b.wall, b.cpu, b.peak_rss_kib / 1024.0,
      a.wall / b.wall, a.cpu / b.cpu);
}

// The scene at `from` with its first instance node moved 1 along x, written to `to`; false when it does not
// read or has no instance node.
bool move_one_node(const std::string& from, const std::string& to) {
  auto file = InputFile::open(from);
  if (!file.ok()) return false;
  auto model = scene::read_scene(file->bytes(), from);
  if (!model.ok()) return false;
  for (tinygltf::Node& node : model->nodes)
    if (node.extras.IsObject() && node.extras.Has("index") && node.matrix.size() == 16) {
      node.matrix[12] += 1;
      std::ostringstream out;
      tinygltf::TinyGLTF gltf;
      if (!gltf.WriteGltfSceneToStream(&*model, out, false, true)) return false;
      std::FILE* f = std::fopen(to.c_str(), "wb");
      if (f == nullptr) return false;
      const std::string bytes = out.str();
      const bool ok = std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
      return std::fclose(f) == 0 && ok;
    }
  return false;
}

}  // namespace

void scene_rows(const std::string& anvilrt, const std::string& census, const std::string& dir, int runs,
                unsigned cores) {
  const std::string glb = dir + "/census.glb", moved = dir + "/census-moved.glb", patch = dir + "/census-moved.json";
  CliRun exported, verified;
  for (int run = 0; run < runs; ++run) {
    keep_faster(exported, run_cli({anvilrt, "export", "-q", census, "-o", glb}));
    keep_faster(verified, run_cli({anvilrt, "verify", "--no-json", "-q", census}));
  }
  std::error_code ignored;
  std::printf("census scene: %.1f MB of glb\n", static_cast<double>(std::filesystem::file_size(glb, ignored)) / 1e6);
  row("anvilrt export FILE -o SCENE.glb", exported, "verify --no-json", verified, cores, runs);
  if (!move_one_node(glb, moved)) {
    std::printf("anvilrt import: the scene with one node moved could not be made\n");
    return;
  }
  CliRun imported, exported_again;
  for (int run = 0; run < runs; ++run) {
    keep_faster(imported, run_cli({anvilrt, "import", "-q", moved, "--onto", census, "-o", patch}));
    keep_faster(exported_again, run_cli({anvilrt, "export", "-q", census, "-o", glb}));
  }
  row("anvilrt import SCENE (one node moved) --onto FILE -o PATCH", imported, "export", exported_again, cores, runs);
  for (const std::string& f : {glb, moved, patch}) std::filesystem::remove(f, ignored);
}

}  // namespace anvil::bench
