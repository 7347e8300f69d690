// The scene of a level set's instances (scene/export_scene.hpp).
#include "scene/export_scene.hpp"

#include <absl/strings/str_cat.h>

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <streambuf>

#include "platform/replace_file.hpp"
#include "scene/axes.hpp"

namespace anvil::scene {
namespace {

// The placeholder: a unit box about the origin, its 8 corners and 12 triangles (glTF's counter-clockwise
// front faces), in one buffer: positions (f32 x, y, z), then indices (u16).
void add_box(tinygltf::Model& model) {
  std::vector<float> corners;
  for (int i = 0; i < 8; ++i)
    for (int axis = 0; axis < 3; ++axis) corners.push_back((i >> axis) & 1 ? 0.5f : -0.5f);
  const std::uint16_t faces[36] = {0, 2, 1, 1, 2, 3, 4, 5, 6, 5, 7, 6, 0, 1, 4, 1, 5, 4,
                                   2, 6, 3, 3, 6, 7, 0, 4, 2, 2, 4, 6, 1, 3, 5, 3, 7, 5};
  tinygltf::Buffer buffer;
  buffer.data.resize(corners.size() * sizeof(float) + sizeof faces);
  std::memcpy(buffer.data.data(), corners.data(), corners.size() * sizeof(float));
  std::memcpy(buffer.data.data() + corners.size() * sizeof(float), faces, sizeof faces);
  model.buffers.push_back(std::move(buffer));

  tinygltf::BufferView positions, indices;
  positions.buffer = indices.buffer = 0;
  positions.byteLength = corners.size() * sizeof(float);
  positions.target = TINYGLTF_TARGET_ARRAY_BUFFER;
  indices.byteOffset = positions.byteLength;
  indices.byteLength = sizeof faces;
  indices.target = TINYGLTF_TARGET_ELEMENT_ARRAY_BUFFER;
  model.bufferViews = {positions, indices};

  tinygltf::Accessor corner_list, index_list;
  corner_list.bufferView = 0;
  corner_list.componentType = TINYGLTF_COMPONENT_TYPE_FLOAT;
  corner_list.count = 8;
  corner_list.type = TINYGLTF_TYPE_VEC3;
  corner_list.minValues = {-0.5, -0.5, -0.5};
  corner_list.maxValues = {0.5, 0.5, 0.5};
  index_list.bufferView = 1;
  index_list.componentType = TINYGLTF_COMPONENT_TYPE_UNSIGNED_SHORT;
  index_list.count = 36;
  index_list.type = TINYGLTF_TYPE_SCALAR;
  model.accessors = {corner_list, index_list};

  tinygltf::Primitive primitive;
  primitive.attributes["POSITION"] = 0;
  primitive.indices = 1;
  primitive.mode = TINYGLTF_MODE_TRIANGLES;
  tinygltf::Mesh mesh;
  mesh.name = "anvilrt placeholder box";
  mesh.primitives.push_back(primitive);
  model.meshes.push_back(std::move(mesh));
}

tinygltf::Value extras_of(const std::string& key, const std::string& archive, const std::string& datafile,
                          const std::size_t* index) {
  tinygltf::Value::Object extras;
  extras[kExtrasKey] = tinygltf::Value(key);
  extras[kExtrasArchive] = tinygltf::Value(archive);
  extras[kExtrasDatafile] = tinygltf::Value(datafile);
  if (index != nullptr) extras[kExtrasIndex] = tinygltf::Value(static_cast<int>(*index));
  return tinygltf::Value(std::move(extras));
}

// A std::ostream's buffer that writes to a C stream (the atomic output's), noting a failed write.
class FileBuffer final : public std::streambuf {
 public:
  explicit FileBuffer(std::FILE* file) : file_(file) {}
  bool failed() const { return failed_; }

 protected:
  int_type overflow(int_type c) override {
    if (traits_type::eq_int_type(c, traits_type::eof())) return traits_type::not_eof(c);
    const char ch = traits_type::to_char_type(c);
    return xsputn(&ch, 1) == 1 ? c : traits_type::eof();
  }
  std::streamsize xsputn(const char* s, std::streamsize n) override {
    const std::size_t written = std::fwrite(s, 1, static_cast<std::size_t>(n), file_);
    if (written != static_cast<std::size_t>(n)) failed_ = true;
    return static_cast<std::streamsize>(written);
  }

 private:
  std::FILE* file_;
  bool failed_ = false;
};

}  // namespace

bool exportable(const Matrix& m) {
  for (f32 v : m)
    if (!std::isfinite(v)) return false;
  return true;
}

tinygltf::Model scene_model(const SceneInput& input, ExportSummary& summary) {
  tinygltf::Model model;
  model.asset.version = "2.0";
  model.asset.generator = "anvilrt export";
  add_box(model);
  tinygltf::Scene scene;
  scene.name = "anvilrt export";  // never an empty JSON object, which tinygltf writes as null
  const std::vector<view::PlacedInstance>& records = input.placed.records;
  model.nodes.reserve(records.size() * 2);
  int visual = -1;
  std::string key;
  for (std::size_t r = 0; r < records.size(); ++r) {
    const view::PlacedInstance& p = records[r];
    const Matrix& matrix = input.placed.matrices[r];
    if (p.index == 0) visual = -1;  // an object's records start at its instance 0
    if (!exportable(matrix)) {
      ++summary.not_finite;
      continue;
    }
    const std::string& archive = input.archives[p.datafile];
    const std::string& datafile = input.datafiles[p.datafile];
    if (visual < 0) {
      key = view::key_of(p);
      tinygltf::Node node;
      node.name = key;
      node.extras = extras_of(key, archive, datafile, nullptr);
      visual = static_cast<int>(model.nodes.size());
      scene.nodes.push_back(visual);
      model.nodes.push_back(std::move(node));
      ++summary.visuals;
    }
    tinygltf::Node node;
    node.name = absl::StrCat(key, "/", p.index);
    node.mesh = 0;
    const Matrix4d g = to_gltf(matrix);
    node.matrix.assign(g.begin(), g.end());
    node.extras = extras_of(key, archive, datafile, &p.index);
    model.nodes[static_cast<std::size_t>(visual)].children.push_back(static_cast<int>(model.nodes.size()));
    model.nodes.push_back(std::move(node));
    ++summary.instances;
  }
  model.scenes.push_back(std::move(scene));
  model.defaultScene = 0;
  return model;
}

absl::StatusOr<ExportSummary> export_scene(const SceneInput& input, const std::string& output, bool json) {
  ExportSummary summary;
  const tinygltf::Model model = scene_model(input, summary);
  platform::AtomicFile file;
  if (auto s = file.open(output); !s.ok()) return s;
  FileBuffer buffer(file.stream());
  std::ostream stream(&buffer);
  tinygltf::TinyGLTF gltf;
  const bool written = gltf.WriteGltfSceneToStream(&model, stream, false, !json);
  stream.flush();
  if (!written || buffer.failed() || !stream)
    return absl::DataLossError(absl::StrCat(output == "-" ? std::string("standard output") : output,
                                            ": cannot write: ", std::strerror(errno)));
  if (auto s = file.commit(); !s.ok()) return s;
  return summary;
}

ExportRun export_target(const view::MapTarget& target, const std::string& output, bool json, unsigned threads) {
  ExportRun run{{}, absl::UnknownError("")};
  const absl::Status s = with_scene_input(target, threads, [&](SceneInput& input) {
    run.recovered = input.recovered;
    run.summary = export_scene(input, output, json);
    return run.summary.status();
  });
  if (!s.ok()) run.summary = s;
  return run;
}

}  // namespace anvil::scene
