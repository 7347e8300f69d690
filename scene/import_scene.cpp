// A scene back into a patch (scene/import_scene.hpp).
#include "scene/import_scene.hpp"

#include <absl/container/flat_hash_map.h>
#include <absl/strings/str_cat.h>
#include <absl/strings/str_join.h>

#include <cstring>
#include <limits>
#include <map>
#include <optional>

#include "platform/paths.hpp"
#include "platform/replace_file.hpp"
#include "reader/input_file.hpp"
#include "scene/axes.hpp"
#include "scene/export_scene.hpp"
#include "scene/instance_ops.hpp"

namespace anvil::scene {
namespace {

// tinygltf's file system: the platform's, read only (the buffers of a .gltf beside it).
bool scene_file_exists(const std::string& path, void*) { return InputFile::open(path).ok(); }
std::string scene_file_path(const std::string& path, void*) { return path; }
bool read_scene_file(std::vector<unsigned char>* out, std::string* err, const std::string& path, void*) {
  auto file = InputFile::open(path);
  if (!file.ok()) {
    if (err != nullptr) *err += std::string(file.status().message());
    return false;
  }
  out->assign(file->bytes().begin(), file->bytes().end());
  return true;
}
bool write_scene_file(std::string* err, const std::string&, const std::vector<unsigned char>&, void*) {
  if (err != nullptr) *err += "import writes no file through tinygltf";
  return false;
}

std::string first_line(const std::string& text) {
  std::string line = text.substr(0, text.find('\n'));
  while (!line.empty() && (line.back() == '\r' || line.back() == ' ')) line.pop_back();
  return line;
}

std::string node_name(const tinygltf::Model& model, int node) {
  const std::string& name = model.nodes[static_cast<std::size_t>(node)].name;
  return absl::StrCat("node ", node, name.empty() ? std::string() : absl::StrCat(" '", name, "'"));
}

// A node's local matrix (glTF frame): its `matrix`, else its translation, rotation and scale.
std::optional<Matrix4d> local_matrix(const tinygltf::Node& node) {
  if (!node.matrix.empty()) {
    if (node.matrix.size() != 16) return std::nullopt;
    Matrix4d m{};
    std::copy(node.matrix.begin(), node.matrix.end(), m.begin());
    return m;
  }
  std::array<double, 3> t{0, 0, 0}, s{1, 1, 1};
  std::array<double, 4> q{0, 0, 0, 1};
  if (!node.translation.empty() && node.translation.size() != 3) return std::nullopt;
  if (!node.rotation.empty() && node.rotation.size() != 4) return std::nullopt;
  if (!node.scale.empty() && node.scale.size() != 3) return std::nullopt;
  std::copy(node.translation.begin(), node.translation.end(), t.begin());
  std::copy(node.rotation.begin(), node.rotation.end(), q.begin());
  std::copy(node.scale.begin(), node.scale.end(), s.begin());
  return from_trs(t, q, s);
}

// What a node's `extras` name: an instance (key, archive, data file, index), or nothing.
struct Named {
  std::string key, archive, datafile;
  std::size_t index = 0;
};

// Nothing for a node whose extras name no instance (no "key" and "index"); an error for extras that try
// and are malformed.
absl::StatusOr<std::optional<Named>> named_instance(const tinygltf::Value& extras) {
  if (!extras.IsObject() || !extras.Has(kExtrasKey) || !extras.Has(kExtrasIndex)) return std::optional<Named>();
  Named n;
  const tinygltf::Value& key = extras.Get(kExtrasKey);
  const tinygltf::Value& index = extras.Get(kExtrasIndex);
  if (!key.IsString()) return absl::InvalidArgumentError("extras \"key\" must be a string");
  n.key = key.Get<std::string>();
  const double i = index.IsInt() ? index.Get<int>() : index.IsReal() ? index.Get<double>() : -1;
  if (!(i >= 0 && i <= std::numeric_limits<int>::max() && i == static_cast<double>(static_cast<long long>(i))))
    return absl::InvalidArgumentError("extras \"index\" must be a whole number, 0 or more");
  n.index = static_cast<std::size_t>(i);
  for (auto [member, out] : {std::pair{kExtrasArchive, &n.archive}, std::pair{kExtrasDatafile, &n.datafile}}) {
    if (!extras.Has(member)) continue;
    if (!extras.Get(member).IsString())
      return absl::InvalidArgumentError(absl::StrCat("extras \"", member, "\" must be a string"));
    *out = extras.Get(member).Get<std::string>();
  }
  return std::optional<Named>(std::move(n));
}

// A node that names an instance: record `record`, at `engine` (its world matrix in the engine's frame).
struct Hit {
  int node = 0;
  std::size_t record = 0;
  Matrix4d engine{};
};

// Every Visual of the input that places instances: its first record, by "member\nkey".
absl::flat_hash_map<std::string, std::size_t> visuals_by_key(const SceneInput& input) {
  absl::flat_hash_map<std::string, std::size_t> first;
  first.reserve(input.placed.records.size());
  const auto& records = input.placed.records;
  for (std::size_t r = 0; r < records.size(); ++r)
    if (records[r].index == 0) first.emplace(absl::StrCat(records[r].datafile, "\n", view::key_of(records[r])), r);
  return first;
}

// Walks the scene's node trees from its roots, the world matrix of each node, and finds the instance each
// node names.
absl::StatusOr<std::vector<Hit>> find_hits(const tinygltf::Model& model, const std::string& scene_path,
                                           const SceneInput& input) {
  std::vector<int> roots;
  if (!model.scenes.empty()) {
    const int s =
        model.defaultScene >= 0 && model.defaultScene < static_cast<int>(model.scenes.size()) ? model.defaultScene : 0;
    roots = model.scenes[static_cast<std::size_t>(s)].nodes;
  } else {
    std::vector<bool> child(model.nodes.size(), false);
    for (const tinygltf::Node& n : model.nodes)
      for (int c : n.children)
        if (c >= 0 && c < static_cast<int>(child.size())) child[static_cast<std::size_t>(c)] = true;
    for (std::size_t i = 0; i < child.size(); ++i)
      if (!child[i]) roots.push_back(static_cast<int>(i));
  }
  const auto visuals = visuals_by_key(input);
  const auto& records = input.placed.records;
  auto refuse = [&](int node, const std::string& why) {
    return absl::InvalidArgumentError(absl::StrCat(scene_path, ": ", node_name(model, node), ": ", why));
  };
  std::vector<Hit> hits;
  std::vector<bool> seen(model.nodes.size(), false);
  Matrix4d identity{};
  identity[0] = identity[5] = identity[10] = identity[15] = 1;
  std::vector<std::pair<int, Matrix4d>> stack;
  for (auto it = roots.rbegin(); it != roots.rend(); ++it) stack.emplace_back(*it, identity);
  while (!stack.empty()) {
    const auto [node, parent] = stack.back();
    stack.pop_back();
    if (node < 0 || node >= static_cast<int>(model.nodes.size()) || seen[static_cast<std::size_t>(node)]) continue;
    seen[static_cast<std::size_t>(node)] = true;
    const tinygltf::Node& n = model.nodes[static_cast<std::size_t>(node)];
    const auto local = local_matrix(n);
    if (!local) return refuse(node, "its matrix, translation, rotation or scale has the wrong count of numbers");
    const Matrix4d world = parent == identity ? *local : multiply(parent, *local);
    for (auto c = n.children.rbegin(); c != n.children.rend(); ++c) stack.emplace_back(*c, world);
    auto named = named_instance(n.extras);
    if (!named.ok()) return refuse(node, std::string(named.status().message()));
    if (!named->has_value()) continue;
    const Named& name = **named;
    const auto member = input.member(name.archive, name.datafile);
    if (!member)
      return refuse(
          node, absl::StrCat("its extras name data file '", name.datafile, "'",
                             name.archive.empty() ? std::string() : absl::StrCat(" of archive '", name.archive, "'"),
                             ", which ", input.path, " does not hold"));
    const auto first = visuals.find(absl::StrCat(*member, "\n", name.key));
    if (first == visuals.end())
      return refuse(
          node, absl::StrCat("its extras name the object ", name.key, ", which places no instance in ", input.path,
                             name.datafile.empty() ? std::string() : absl::StrCat(" (data file ", name.datafile, ")")));
    const std::size_t record = first->second + name.index;
    const view::PlacedInstance& object = records[first->second];
    if (record >= records.size() || records[record].index != name.index || records[record].id != object.id ||
        records[record].repeated_at != object.repeated_at || records[record].datafile != *member)
      return refuse(node, absl::StrCat("its extras name instance ", name.index, " of ", name.key, ", which ",
                                       input.path, " does not have"));
    hits.push_back({node, record, to_engine(world)});
  }
  return hits;
}

// What the hits make of each instance, by Visual (its first record), in record order.
struct Decided {
  std::map<std::size_t, InstanceEdits> visuals;
  ImportSummary summary;
};

absl::StatusOr<Decided> decide(const tinygltf::Model& model, const std::string& scene_path, const SceneInput& input,
                               const std::vector<Hit>& hits) {
  const auto& records = input.placed.records;
  const auto& matrices = input.placed.matrices;
  std::vector<std::size_t> first_hit(records.size(), hits.size());
  std::vector<std::size_t> next_hit(hits.size(), hits.size());  // the next hit of the same record
  for (std::size_t h = hits.size(); h-- > 0;) {
    next_hit[h] = first_hit[hits[h].record];
    first_hit[hits[h].record] = h;
  }
  Decided d;
  auto refuse = [&](const std::string& what, const std::string& why) {
    return absl::InvalidArgumentError(absl::StrCat(scene_path, ": ", what, ": ", why));
  };
  auto holdable = [&](const Hit& hit) -> absl::Status {
    if (const std::string why = unholdable(hit.engine); !why.empty())
      return refuse(node_name(model, hit.node), absl::StrCat("its transform cannot be an instance matrix: ", why));
    return absl::OkStatus();
  };
  const char* fixed_size =
      "a level file's objects cannot change size (docs/patches.md): export a data file, archive or game folder";
  for (std::size_t r = 0; r < records.size(); ++r) {
    const std::size_t visual = r - records[r].index;
    const std::string instance = absl::StrCat(view::key_of(records[r]), "/", records[r].index);
    if (first_hit[r] == hits.size()) {
      if (!exportable(matrices[r])) continue;  // never in a scene
      if (!input.resizable())
        return refuse("instance " + instance, absl::StrCat("its node is deleted, but ", fixed_size));
      d.visuals[visual].removed.push_back(records[r].index);
      ++d.summary.removed;
      continue;
    }
    // The instance itself: the unchanged node, else the one of its own name, else the first.
    std::size_t kept = hits.size();
    for (std::size_t h = first_hit[r]; h < hits.size() && kept == hits.size(); h = next_hit[h])
      if (same_transform(matrices[r], hits[h].engine)) kept = h;
    for (std::size_t h = first_hit[r]; h < hits.size() && kept == hits.size(); h = next_hit[h])
      if (model.nodes[static_cast<std::size_t>(hits[h].node)].name == instance) kept = h;
    if (kept == hits.size()) kept = first_hit[r];
    for (std::size_t h = first_hit[r]; h < hits.size(); h = next_hit[h]) {
      if (auto s = holdable(hits[h]); !s.ok() && (h != kept || !same_transform(matrices[r], hits[h].engine))) return s;
      if (h == kept) {
        if (same_transform(matrices[r], hits[h].engine)) continue;
        d.visuals[visual].moved.emplace_back(records[r].index, to_f32(hits[h].engine));
        ++d.summary.moved;
        continue;
      }
      if (!input.resizable())
        return refuse(node_name(model, hits[h].node), absl::StrCat("a copy of ", instance, ", but ", fixed_size));
      d.visuals[visual].added.emplace_back(records[r].index, to_f32(hits[h].engine));
      ++d.summary.added;
    }
  }
  return d;
}

// The Visuals' objects, data file by data file, and their operations.
absl::Status append_ops(SceneInput& input, std::map<std::size_t, InstanceEdits>& visuals,
                        std::vector<std::string>& ops) {
  const auto& records = input.placed.records;
  auto it = visuals.begin();
  while (it != visuals.end()) {
    const u32 member = records[it->first].datafile;
    auto level = input.set->level(member);
    if (!level.ok())
      return absl::Status(level.status().code(), absl::StrCat(input.path, ": ", level.status().message()));
    // The pieces of this data file's edited Visuals.
    absl::flat_hash_map<std::pair<u64, u64>, const Piece*> pieces;
    auto end = it;
    while (end != visuals.end() && records[end->first].datafile == member) {
      const view::PlacedInstance& p = records[end->first];
      pieces.emplace(std::pair{p.id, p.repeated_at}, nullptr);
      ++end;
    }
    for (const Piece& piece : (*level)->pieces) {
      if (!piece.is_object()) continue;
      auto found =
          pieces.find(std::pair{piece.id, piece.repeated_id ? u64{piece.offset} : view::PlacedInstance::kNotRepeated});
      if (found != pieces.end() && found->second == nullptr) found->second = &piece;
    }
    for (; it != end; ++it) {
      const view::PlacedInstance& p = records[it->first];
      const Piece* piece = pieces.at(std::pair{p.id, p.repeated_at});
      if (piece == nullptr)
        return absl::InternalError(absl::StrCat(input.path, ": ", view::key_of(p), " is not found again"));
      Object object = parse_piece(**level, *piece);
      append_instance_ops(object, input.object_pointer(member, view::key_of(p)), it->second, ops);
    }
    input.set->release(member);
  }
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<tinygltf::Model> read_scene(std::span<const u8> bytes, const std::string& path) {
  tinygltf::TinyGLTF gltf;
  gltf.SetFsCallbacks({&scene_file_exists, &scene_file_path, &read_scene_file, &write_scene_file, nullptr});
  tinygltf::Model model;
  std::string err, warn;
  if (bytes.size() > std::numeric_limits<unsigned int>::max())
    return absl::InvalidArgumentError(absl::StrCat(path, ": a scene of more than 4 GiB is not read"));
  const std::string base = platform::utf8_of(platform::path_of(path).parent_path());
  const bool binary = bytes.size() >= 4 && std::memcmp(bytes.data(), "glTF", 4) == 0;
  const auto size = static_cast<unsigned int>(bytes.size());
  const bool read =
      binary ? gltf.LoadBinaryFromMemory(&model, &err, &warn, bytes.data(), size, base)
             : gltf.LoadASCIIFromString(&model, &err, &warn, reinterpret_cast<const char*>(bytes.data()), size, base);
  if (!read)
    return absl::InvalidArgumentError(absl::StrCat(
        path, ": not a glTF scene: ", err.empty() ? std::string("(tinygltf gave no reason)") : first_line(err)));
  return model;
}

absl::StatusOr<ImportSummary> import_scene(const tinygltf::Model& model, const std::string& scene_path,
                                           SceneInput& input) {
  auto hits = find_hits(model, scene_path, input);
  if (!hits.ok()) return hits.status();
  auto decided = decide(model, scene_path, input, *hits);
  if (!decided.ok()) return decided.status();
  if (auto s = append_ops(input, decided->visuals, decided->summary.ops); !s.ok()) return s;
  return std::move(decided->summary);
}

std::string patch_text(const std::vector<std::string>& ops, const std::string& mod_name, Game game) {
  std::string patch = ops.empty() ? "[]" : absl::StrCat("[\n  ", absl::StrJoin(ops, ",\n  "), "\n]");
  if (mod_name.empty()) return patch + "\n";
  return absl::StrCat("{\"anvilrt_mod\": 1, \"name\": ", json_string(mod_name), ", \"game\": \"",
                      game == Game::ac2 ? "ac2" : "sws", "\",\n \"patch\": ", patch, "}\n");
}

ImportRun import_onto(const view::MapTarget& target, std::span<const u8> scene, const std::string& scene_path,
                      const std::string& output, const std::string& mod_name, unsigned threads) {
  ImportRun run{{}, absl::UnknownError("")};
  auto model = read_scene(scene, scene_path);
  if (!model.ok()) {
    run.summary = model.status();
    return run;
  }
  const absl::Status s = with_scene_input(target, threads, [&](SceneInput& input) -> absl::Status {
    run.recovered = input.recovered;
    if (!mod_name.empty() && input.kind != InputKind::folder)
      return absl::InvalidArgumentError(
          absl::StrCat("--mod ", mod_name, ": a mod is a patch of a game folder (docs/mods.md), and ", input.path,
                       " is not one: write a patch (-o PATCH.json) or import onto the folder"));
    run.summary = import_scene(*model, scene_path, input);
    if (!run.summary.ok()) return run.summary.status();
    const std::string text = patch_text(run.summary->ops, mod_name, input.game);
    return platform::write_file_atomically(output,
                                           std::span(reinterpret_cast<const std::uint8_t*>(text.data()), text.size()));
  });
  if (!s.ok()) run.summary = s;
  return run;
}

}  // namespace anvil::scene
