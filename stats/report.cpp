#include "stats/report.hpp"

#include <absl/strings/str_format.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <cstring>
#include <functional>

#include "model/class_ids.hpp"
#include "model/document.hpp"
#include "model/json_text.hpp"

namespace anvil::stats {

std::string grouped(u64 n) {
  std::string digits = std::to_string(n), out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

namespace {

using Entries = std::vector<std::pair<std::string, u64>>;

// What a report is made of; the text and the JSON emitters give each its spelling.
class Emitter {
 public:
  virtual ~Emitter() = default;
  // A group of lines; an empty title groups without a heading (text) and still nests (JSON).
  virtual void begin(const std::string& key, const std::string& title) = 0;
  virtual void end() = 0;
  virtual void number(const std::string& key, const std::string& label, u64 n) = 0;
  // "label on n of total"
  virtual void part(const std::string& key, const std::string& label, u64 n, u64 total) = 0;
  // "label: key count, key count" (text: commonest first; JSON: in key order)
  virtual void values(const std::string& key, const std::string& label, const Entries& entries) = 0;
  virtual void near_misses(const std::map<std::string, NearMisses>& misses, std::span<const std::string> files) = 0;
};

// --- spelling of values -------------------------------------------------------------------------------

std::string dec(u64 v) { return std::to_string(v); }
std::string hex_byte(u64 v) { return absl::StrFormat("%02x", v); }

template <class F>
Entries entries(const Values& values, F spell) {
  Entries out;
  for (const auto& [k, n] : values) out.emplace_back(spell(k), n);
  return out;
}
Entries entries(const Values& values) { return entries(values, dec); }
Entries entries(const Names& names) { return {names.begin(), names.end()}; }

u64 at(const Values& values, u64 key) {
  auto it = values.find(key);
  return it == values.end() ? 0 : it->second;
}

const char* layout_name(u64 layout) {
  static const char* names[] = {"Default", "UI", "Skin", "Gear", "Material"};
  return layout < 5 ? names[layout] : "unknown";
}
std::string layout_key(u64 layout) { return absl::StrFormat("%d %s", layout, layout_name(layout)); }

std::string f32_tuple(const std::array<u32, 4>& bits) {
  std::string out = "(";
  for (std::size_t i = 0; i < 4; ++i) {
    if (i > 0) out += ", ";
    f32 v;
    std::memcpy(&v, &bits[i], 4);
    if (v != v || v - v != 0)
      out += json_text::format_f32_bits(v);
    else
      json_text::append_f32(out, v);
  }
  return out + ")";
}

// --- the walk -----------------------------------------------------------------------------------------

void walk_ac2(const Ac2& t, Emitter& e) {
  e.begin("visual", "Visual");
  e.values("managed", "ManagedObject byte", entries(t.managed));
  e.values("active", "Active", entries(t.active));
  e.values("is_an_optimized_component", "IsAnOptimizedComponent", entries(t.is_an_optimized_component));
  e.values("is_partially_optimized", "IsPartiallyOptimized", entries(t.is_partially_optimized));
  e.values("object_tag", "object tag",
           entries(t.shown_tag, [](u64 v) { return absl::StrFormat("%02x %02x", v >> 8, v & 0xFF); }));
  e.values("instance_classes", "instance classes", entries(t.instance_classes));
  e.end();

  e.begin("lod_selector_instance", absl::StrFormat("LODSelectorInstance (%s)", grouped(t.lod_selector_instances)));
  e.number("count", "count", t.lod_selector_instances);
  e.values("instance_counts", "instance count k", entries(t.lod_instances));
  e.values("slot_patterns", "slot patterns (M mesh, I impostor, . empty)", entries(t.slot_patterns));
  e.values("used_slots", "used slots", entries(t.used_slots));
  e.begin("slot_classes", "slot classes");
  for (std::size_t i = 0; i < 5; ++i) e.values(dec(i), absl::StrFormat("slot %d", i), entries(t.slot_classes[i]));
  e.end();
  e.number("impostors", "ImpostorInstanceData in slots", t.impostors);
  e.end();

  const Ac2Meshes& m = t.meshes;
  e.begin("mesh_instance_data", absl::StrFormat("MeshInstanceData (%s: %s direct, %s in slots)", grouped(m.count),
                                                grouped(m.direct), grouped(m.count - m.direct)));
  e.number("count", "count", m.count);
  e.number("direct", "direct", m.direct);
  e.number("in_slots", "in slots", m.count - m.direct);
  e.part("is_fake_1", "IsFake 1", at(m.is_fake, 1), m.count);
  e.values("is_fake", "IsFake", entries(m.is_fake));
  e.part("is_near_fake_1", "IsNearFake 1", at(m.is_near_fake, 1), m.count);
  e.values("is_near_fake", "IsNearFake", entries(m.is_near_fake));
  e.part("fake_mesh_index_nonzero", "FakeMeshIndex non-zero", m.fake_mesh_index_nonzero, m.count);
  e.values("vertex_format", "VertexFormat", entries(m.vertex_format));
  e.values("streams", "Streams count", entries(m.streams));
  e.values("platform_version", "PlatformVersion", entries(m.platform_version));
  e.part("mesh_hash_nonzero", "MeshHash non-zero", m.mesh_hash_nonzero, m.count);
  e.part("compiled_id_zero", "CompiledMeshInstance id 0", m.compiled_id_zero, m.count);
  e.values("instance_counts", "instance count n", entries(m.instances));
  e.values("material_counts", "material-info count a", entries(m.materials));
  e.values("material_modes", "material-info modes", entries(m.modes, hex_byte));
  e.values("instance_bounds_counts", "instance bounds count b", entries(m.instance_bounds));
  e.end();

  e.begin("other_instances", "LightInstance and unknown instances");
  e.number("light_instances", "LightInstance (311 opaque bytes, no tail)", t.lights);
  e.values("unknown_classes", "unknown instance classes", entries(t.unknown_classes));
  e.number("unknown_body_bytes", "unknown body bytes", t.unknown_body_bytes);
  e.number("unknown_empty_bodies", "unknown empty bodies", t.unknown_empty_bodies);
  e.end();

  e.begin("tail", absl::StrFormat("Visual tail (%s)", grouped(t.tails)));
  e.number("count", "tails", t.tails);
  e.values("bools", "the four bools", entries(t.bools, [](u64 v) { return absl::StrFormat("%08x", v); }));
  e.values("display_order", "DisplayOrder", entries(t.display_order));
  e.values("unaccounted", "unaccounted", entries(t.unaccounted, [](u64 v) { return absl::StrFormat("%016x", v); }));
  e.part("shader_constants_id_zero", "VisualShaderConstants id 0", t.shader_constants_id_zero, t.tails);
  e.values("data_layout", "DataLayout", entries(t.data_layout, layout_key));
  e.begin("data_f32_ones", "data_f32 (1, 1, 1, 1)");
  for (const auto& [layout, n] : t.data_layout) e.part(dec(layout), layout_name(layout), at(t.f32_ones, layout), n);
  e.end();
  e.begin("data_u32_zero", "data_u32 (0, 0, 0, 0)");
  for (const auto& [layout, n] : t.data_layout) e.part(dec(layout), layout_name(layout), at(t.u32_zero, layout), n);
  e.end();
  std::vector<std::pair<u64, std::string>> endings;
  for (const auto& [key, n] : t.f32_endings)
    endings.emplace_back(n, absl::StrFormat("%s %s", layout_name(key.first), f32_tuple(key.second)));
  std::stable_sort(endings.begin(), endings.end(), [](const auto& a, const auto& b) { return a.first > b.first; });
  Entries top;
  for (std::size_t i = 0; i < endings.size() && i < 5; ++i) top.emplace_back(endings[i].second, endings[i].first);
  e.number("distinct_f32_endings", "distinct (DataLayout, data_f32) endings", endings.size());
  e.values("commonest_f32_endings", "commonest endings", top);
  e.end();
}

void walk_sws(const Sws& t, Emitter& e) {
  e.begin("lod_selector", absl::StrFormat("LODSelector (%s)", grouped(t.selectors)));
  e.number("count", "selectors", t.selectors);
  e.values("used_slots", "used slots", entries(t.used_slots));
  e.values("used_patterns", "slot patterns (U used, . unused)", entries(t.used_patterns));
  e.part("monotonic", "switch distances monotonic (non-decreasing over the used slots)", t.monotonic,
         t.distance_checked);
  e.values("category", "Category", entries(t.category));
  e.values("generated", "Generated", entries(t.generated));
  e.values("flags", "used-slot flags", entries(t.flags, hex_byte));
  e.values("trailing", "trailing byte", entries(t.trailing, hex_byte));
  e.values("managed", "managed", entries(t.selector_managed));
  e.end();

  e.begin("visual", "Visual");
  e.values("managed", "managed", entries(t.managed));
  e.values("active", "Active", entries(t.active));
  e.values("is_an_optimized_component", "IsAnOptimizedComponent", entries(t.is_an_optimized_component));
  e.values("is_partially_optimized", "IsPartiallyOptimized", entries(t.is_partially_optimized));
  e.values("instance_classes", "instance classes", entries(t.instance_classes));
  e.end();

  e.begin("lod_selector_instance", absl::StrFormat("LODSelectorInstance (%s)", grouped(t.lod_selector_instances)));
  e.number("count", "count", t.lod_selector_instances);
  e.values("instance_counts", "instance count k", entries(t.lod_instances));
  e.values("slot_patterns", "slot patterns (M mesh, . empty)", entries(t.slot_patterns));
  e.end();

  e.begin("mesh_instance_data", absl::StrFormat("MeshInstanceData (%s: %s direct, %s in slots)", grouped(t.meshes),
                                                grouped(t.direct_meshes), grouped(t.meshes - t.direct_meshes)));
  e.number("count", "count", t.meshes);
  e.number("direct", "direct", t.direct_meshes);
  e.values("submesh_counts", "SubMeshInstanceData count", entries(t.submeshes));
  e.part("prt_nonzero", "PRT id non-zero", t.prt_nonzero, t.meshes);
  e.part("ao_nonzero", "SubMeshInstanceData AO id non-zero", t.ao_nonzero, t.submesh_total);
  e.number("compiled_data_bytes", "CompiledMeshInstance data bytes", t.compiled_data_bytes);
  e.part("hash_nonzero", "CompiledMeshInstance hash non-zero", t.hash_nonzero, t.meshes);
  e.end();
}

void walk(const Census& census, std::span<const std::string> files, Emitter& e) {
  e.number("files", "files", files.size());
  e.begin("dialects", "");
  for (const auto& [game, d] : census.dialects) {
    std::string name(game_name(game));
    e.begin(name, absl::StrFormat("%s: %s file%s, %s bytes", name, grouped(d.files), d.files == 1 ? "" : "s",
                                  grouped(d.bytes)));
    e.number("files", "files", d.files);
    e.number("bytes", "bytes", d.bytes);
    e.number("carved_bytes", "bytes carved", d.carved_bytes);
    e.number("opaque_bytes", "bytes opaque", d.bytes - d.carved_bytes);
    e.values("objects", "objects by class", entries(d.objects));
    if (game == Game::ac2)
      walk_ac2(d.ac2, e);
    else
      walk_sws(d.sws, e);
    e.near_misses(d.near_misses, files);
    e.end();
  }
  e.end();
  if (census.archives.empty()) return;
  e.begin("archives", "");
  for (const Archive& a : census.archives) {
    if (!a.error.empty()) {
      e.begin(a.path, absl::StrFormat("archive %s: does not read: %s", a.path, a.error));
      e.values("error", "error", {{a.error, 1}});
      e.end();
      continue;
    }
    e.begin(a.path, absl::StrFormat("archive %s: %s data files, %s bytes stored, %s decompressed", a.path,
                                    grouped(a.datafiles), grouped(a.stored_bytes), grouped(a.decompressed_bytes)));
    e.number("datafiles", "data files", a.datafiles);
    e.values("compression", "data files by compression", entries(a.compression));
    e.number("stored_bytes", "bytes stored", a.stored_bytes);
    e.number("decompressed_bytes", "bytes decompressed", a.decompressed_bytes);
    e.values("checksum_rule", "checksum rule (blocks checked)", {{a.checksum_rule, a.checked_blocks}});
    e.near_misses(a.near_misses, a.names);
    e.end();
  }
  e.end();
}

// --- text ---------------------------------------------------------------------------------------------

class TextEmitter final : public Emitter {
 public:
  void begin(const std::string&, const std::string& title) override {
    headings_.push_back(!title.empty());
    if (title.empty()) return;
    line(title);
    ++depth_;
  }
  void end() override {
    if (headings_.back()) --depth_;
    headings_.pop_back();
  }
  void number(const std::string&, const std::string& label, u64 n) override {
    line(absl::StrFormat("%s: %s", label, grouped(n)));
  }
  void part(const std::string&, const std::string& label, u64 n, u64 total) override {
    line(absl::StrFormat("%s on %s of %s", label, grouped(n), grouped(total)));
  }
  void values(const std::string&, const std::string& label, const Entries& entries) override {
    Entries sorted = entries;
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    std::string text = label + ":";
    if (sorted.empty()) text += " none";
    for (std::size_t i = 0; i < sorted.size(); ++i)
      text += absl::StrFormat("%s %s %s", i == 0 ? "" : ",", sorted[i].first, grouped(sorted[i].second));
    line(text);
  }
  void near_misses(const std::map<std::string, NearMisses>& misses, std::span<const std::string> files) override {
    u64 n = 0;
    for (const auto& [kind, m] : misses) n += m.count;
    if (misses.empty()) {
      line("near misses: none");
      return;
    }
    line(absl::StrFormat("near misses (%s candidates that failed a check):", grouped(n)));
    ++depth_;
    for (const auto& [kind, m] : misses) {
      std::string where;
      for (const auto& ex : m.first) {
        if (!where.empty()) where += ", ";
        if (files.size() > 1) where += files[ex.file] + "+";
        where += absl::StrFormat("0x%x", ex.offset);
        if (!ex.found.empty()) where += " (found " + ex.found + ")";
      }
      line(absl::StrFormat("%s: %s (first at %s%s)", kind, grouped(m.count), where,
                           m.count > m.first.size() ? ", ..." : ""));
    }
    --depth_;
  }
  std::string take() { return std::move(out_); }

 private:
  void line(const std::string& text) {
    out_.append(2 * depth_, ' ');
    out_ += text;
    out_ += '\n';
  }
  std::string out_;
  int depth_ = 0;
  std::vector<bool> headings_;
};

// --- JSON ---------------------------------------------------------------------------------------------

class JsonEmitter final : public Emitter {
 public:
  explicit JsonEmitter(rapidjson::PrettyWriter<rapidjson::StringBuffer>& w) : w_(w) {}
  void begin(const std::string& key, const std::string&) override {
    w_.Key(key);
    w_.StartObject();
  }
  void end() override { w_.EndObject(); }
  void number(const std::string& key, const std::string&, u64 n) override {
    w_.Key(key);
    w_.Uint64(n);
  }
  void part(const std::string& key, const std::string&, u64 n, u64 total) override {
    w_.Key(key);
    w_.StartObject();
    w_.Key("count");
    w_.Uint64(n);
    w_.Key("of");
    w_.Uint64(total);
    w_.EndObject();
  }
  void values(const std::string& key, const std::string&, const Entries& entries) override {
    w_.Key(key);
    w_.StartObject();
    for (const auto& [k, n] : entries) {
      w_.Key(k);
      w_.Uint64(n);
    }
    w_.EndObject();
  }
  void near_misses(const std::map<std::string, NearMisses>& misses, std::span<const std::string> files) override {
    w_.Key("near_misses");
    w_.StartObject();
    for (const auto& [kind, m] : misses) {
      w_.Key(kind);
      w_.StartObject();
      w_.Key("count");
      w_.Uint64(m.count);
      w_.Key("first");
      w_.StartArray();
      for (const auto& ex : m.first) {
        w_.StartObject();
        w_.Key("file");
        w_.String(files.empty() ? std::string() : files[ex.file]);
        w_.Key("offset");
        w_.Uint64(ex.offset);
        w_.Key("found");
        w_.String(ex.found);
        w_.EndObject();
      }
      w_.EndArray();
      w_.EndObject();
    }
    w_.EndObject();
  }

 private:
  rapidjson::PrettyWriter<rapidjson::StringBuffer>& w_;
};

}  // namespace

std::string text_report(const Census& census, std::span<const std::string> files) {
  TextEmitter e;
  walk(census, files, e);
  return e.take();
}

std::string json_report(const Census& census, std::span<const std::string> files) {
  rapidjson::StringBuffer buffer;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> w(buffer);
  w.SetIndent(' ', 2);
  w.StartObject();
  w.Key(document::kFormat.text, static_cast<rapidjson::SizeType>(document::kFormat.size));
  w.String(kStatsFormat.data(), static_cast<rapidjson::SizeType>(kStatsFormat.size()));
  JsonEmitter e(w);
  walk(census, files, e);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize()) + "\n";
}

}  // namespace anvil::stats
