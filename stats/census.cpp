#include "stats/census.hpp"

#include <cstring>

#include "model/dialect.hpp"
#include "reader/carver.hpp"

namespace anvil::stats {

namespace {

u32 bits(f32 v) {
  u32 b;
  std::memcpy(&b, &v, 4);
  return b;
}

// A few bytes in storage order as one number (0xAABBCCDD for bytes AA BB CC DD).
template <class It>
u64 storage_order(It begin, It end) {
  u64 v = 0;
  for (It it = begin; it != end; ++it) v = (v << 8) | *it;
  return v;
}

void count_ac2_mesh(Ac2Meshes& t, const ac2::MeshInstanceData& m, bool direct) {
  ++t.count;
  t.direct += direct;
  ++t.is_fake[m.is_fake];
  ++t.is_near_fake[m.is_near_fake];
  t.fake_mesh_index_nonzero += m.fake_mesh_index != 0;
  ++t.vertex_format[m.compiled.vertex_format];
  ++t.streams[0];  // checked: a carved CompiledMeshInstance has no streams
  ++t.platform_version[m.compiled.platform_version];
  t.mesh_hash_nonzero += m.compiled.mesh_hash.value != 0;
  t.compiled_id_zero += m.compiled.id.value == 0;
  ++t.instances[m.instances.size()];
  ++t.materials[m.materials.size()];
  ++t.instance_bounds[m.instance_bounds.size()];
  for (const ac2::MaterialInfo& info : m.materials) ++t.modes[info.mode];
}

void count_ac2(Ac2& t, const ac2::Visual& v) {
  ++t.managed[v.managed];
  ++t.active[v.active];
  ++t.is_an_optimized_component[v.is_an_optimized_component];
  ++t.is_partially_optimized[v.is_partially_optimized];
  ++t.shown_tag[storage_order(v.object.tag.begin(), v.object.tag.end())];
  if (!v.instance) {
    ++t.instance_classes["none"];
  } else {
    const auto& body = v.instance->body;
    ++t.instance_classes[class_id::to_json(class_id_of(body))];
    if (const auto* lod = std::get_if<ac2::LODSelectorInstance>(&body)) {
      ++t.lod_selector_instances;
      ++t.lod_instances[lod->instances.size()];
      std::string pattern(5, '.');
      u64 used = 0;
      for (std::size_t i = 0; i < 5; ++i) {
        const auto& slot = lod->slots[i];
        if (!slot) {
          ++t.slot_classes[i]["empty"];
          continue;
        }
        ++used;
        ++t.slot_classes[i][class_id::to_json(class_id_of(slot->body))];
        if (const auto* mesh = std::get_if<ac2::MeshInstanceData>(&slot->body)) {
          pattern[i] = 'M';
          count_ac2_mesh(t.meshes, *mesh, false);
        } else {
          pattern[i] = 'I';
          ++t.impostors;
        }
      }
      ++t.slot_patterns[pattern];
      ++t.used_slots[used];
    } else if (const auto* mesh = std::get_if<ac2::MeshInstanceData>(&body)) {
      count_ac2_mesh(t.meshes, *mesh, true);
    } else if (std::holds_alternative<ac2::LightInstance>(body)) {
      ++t.lights;
    } else if (const auto* unknown = std::get_if<ac2::UnknownInstance>(&body)) {
      ++t.unknown_classes[class_id::to_json(unknown->class_id)];
      t.unknown_body_bytes += unknown->body.bytes.size();
      t.unknown_empty_bodies += unknown->body.bytes.empty();
    }
  }
  if (!v.tail) return;
  const ac2::VisualTail& tail = *v.tail;
  ++t.tails;
  const u8 four[] = {tail.can_be_occluder, tail.has_unshare_context, tail.optimized_packed_lod,
                     tail.copy_instance_data_on_duplicate};
  ++t.bools[storage_order(std::begin(four), std::end(four))];
  ++t.display_order[tail.display_order];
  ++t.unaccounted[storage_order(tail.unaccounted.bytes.begin(), tail.unaccounted.bytes.end())];
  t.shader_constants_id_zero += tail.shader_constants_id.value == 0;
  ++t.data_layout[tail.data_layout];
  std::array<u32, 4> f{bits(tail.data_f32[0]), bits(tail.data_f32[1]), bits(tail.data_f32[2]), bits(tail.data_f32[3])};
  const u32 one = bits(1.0f);
  t.f32_ones[tail.data_layout] += f == std::array<u32, 4>{one, one, one, one};
  t.u32_zero[tail.data_layout] += tail.data_u32 == std::array<u32, 4>{};
  ++t.f32_endings[{tail.data_layout, f}];
}

void count_sws_mesh(Sws& t, const sws::MeshInstanceData& m, bool direct) {
  ++t.meshes;
  t.direct_meshes += direct;
  ++t.submeshes[m.submeshes.size()];
  t.prt_nonzero += m.prt.value != 0;
  t.submesh_total += m.submeshes.size();
  for (const auto& s : m.submeshes) t.ao_nonzero += s.ao.value != 0;
  t.compiled_data_bytes += m.compiled.data.bytes.size();
  t.hash_nonzero += m.compiled.hash.value != 0;
}

void count_sws(Sws& t, const sws::LODSelector& s) {
  ++t.selectors;
  ++t.selector_managed[s.managed];
  ++t.category[s.category];
  ++t.generated[s.generated];
  ++t.trailing[s.trailing];
  std::string pattern(5, '.');
  u64 used = 0;
  bool monotonic = true;
  bool have_previous = false;
  f32 previous = 0;
  for (std::size_t i = 0; i < 5; ++i) {
    const sws::LODDescriptor& d = s.slots[i];
    if (d.object.value == 0) continue;
    pattern[i] = 'U';
    ++used;
    ++t.flags[d.flag];
    if (have_previous && !(d.switch_distance >= previous)) monotonic = false;
    previous = d.switch_distance;
    have_previous = true;
  }
  ++t.used_slots[used];
  ++t.used_patterns[pattern];
  if (used >= 2) {
    ++t.distance_checked;
    t.monotonic += monotonic;
  }
}

void count_sws(Sws& t, const sws::Visual& v) {
  ++t.managed[v.managed];
  ++t.active[v.active];
  ++t.is_an_optimized_component[v.is_an_optimized_component];
  ++t.is_partially_optimized[v.is_partially_optimized];
  if (!v.instance) {
    ++t.instance_classes["none"];
    return;
  }
  const auto& body = v.instance->body;
  ++t.instance_classes[class_id::to_json(class_id_of(body))];
  if (const auto* mesh = std::get_if<sws::MeshInstanceData>(&body)) {
    count_sws_mesh(t, *mesh, true);
    return;
  }
  const auto& lod = std::get<sws::LODSelectorInstance>(body);
  ++t.lod_selector_instances;
  ++t.lod_instances[lod.instances.size()];
  std::string pattern(5, '.');
  for (std::size_t i = 0; i < 5; ++i) {
    if (!lod.slots[i]) continue;
    pattern[i] = 'M';
    count_sws_mesh(t, std::get<sws::MeshInstanceData>(lod.slots[i]->body), false);
  }
  ++t.slot_patterns[pattern];
}

// --- merging ------------------------------------------------------------------------------------------

void add(u64& a, u64 b) { a += b; }
template <class K>
void add(std::map<K, u64>& a, const std::map<K, u64>& b) {
  for (const auto& [k, n] : b) a[k] += n;
}
template <class T, std::size_t N>
void add(std::array<T, N>& a, const std::array<T, N>& b) {
  for (std::size_t i = 0; i < N; ++i) add(a[i], b[i]);
}
void add(Ac2Meshes& a, const Ac2Meshes& b);

template <class... T>
void add_all(std::pair<T&, const T&>... fields) {
  (add(fields.first, fields.second), ...);
}
#define ANVIL_FIELD(x) std::pair<decltype(a.x)&, const decltype(a.x)&>(a.x, b.x)

void add(Ac2Meshes& a, const Ac2Meshes& b) {
  add_all(ANVIL_FIELD(count), ANVIL_FIELD(direct), ANVIL_FIELD(is_fake), ANVIL_FIELD(is_near_fake),
          ANVIL_FIELD(vertex_format), ANVIL_FIELD(streams), ANVIL_FIELD(platform_version),
          ANVIL_FIELD(fake_mesh_index_nonzero), ANVIL_FIELD(mesh_hash_nonzero), ANVIL_FIELD(compiled_id_zero),
          ANVIL_FIELD(instances), ANVIL_FIELD(materials), ANVIL_FIELD(instance_bounds), ANVIL_FIELD(modes));
}

void add(Ac2& a, const Ac2& b) {
  add_all(ANVIL_FIELD(managed), ANVIL_FIELD(active), ANVIL_FIELD(is_an_optimized_component),
          ANVIL_FIELD(is_partially_optimized), ANVIL_FIELD(shown_tag), ANVIL_FIELD(instance_classes),
          ANVIL_FIELD(lod_selector_instances), ANVIL_FIELD(lod_instances), ANVIL_FIELD(slot_patterns),
          ANVIL_FIELD(slot_classes), ANVIL_FIELD(used_slots), ANVIL_FIELD(meshes), ANVIL_FIELD(impostors),
          ANVIL_FIELD(lights), ANVIL_FIELD(unknown_classes), ANVIL_FIELD(unknown_body_bytes),
          ANVIL_FIELD(unknown_empty_bodies), ANVIL_FIELD(tails), ANVIL_FIELD(bools), ANVIL_FIELD(display_order),
          ANVIL_FIELD(unaccounted), ANVIL_FIELD(shader_constants_id_zero), ANVIL_FIELD(data_layout),
          ANVIL_FIELD(f32_ones), ANVIL_FIELD(u32_zero), ANVIL_FIELD(f32_endings));
}

void add(Sws& a, const Sws& b) {
  add_all(ANVIL_FIELD(selectors), ANVIL_FIELD(selector_managed), ANVIL_FIELD(used_slots), ANVIL_FIELD(category),
          ANVIL_FIELD(generated), ANVIL_FIELD(flags), ANVIL_FIELD(trailing), ANVIL_FIELD(used_patterns),
          ANVIL_FIELD(distance_checked), ANVIL_FIELD(monotonic), ANVIL_FIELD(managed), ANVIL_FIELD(active),
          ANVIL_FIELD(is_an_optimized_component), ANVIL_FIELD(is_partially_optimized), ANVIL_FIELD(instance_classes),
          ANVIL_FIELD(lod_selector_instances), ANVIL_FIELD(lod_instances), ANVIL_FIELD(slot_patterns),
          ANVIL_FIELD(meshes), ANVIL_FIELD(direct_meshes), ANVIL_FIELD(submeshes), ANVIL_FIELD(prt_nonzero),
          ANVIL_FIELD(ao_nonzero), ANVIL_FIELD(submesh_total), ANVIL_FIELD(compiled_data_bytes),
          ANVIL_FIELD(hash_nonzero));
}

#undef ANVIL_FIELD

}  // namespace

void Census::add_file(std::span<const u8> bytes, Game game, std::size_t file, std::span<const Extent> regions,
                      const ProgressFn& progress) {
  Dialect& d = dialects[game];
  ++d.files;
  d.bytes += bytes.size();
  Extent whole{0, bytes.size()};
  ProgressSteps steps(progress, bytes.size());
  for (const Extent& region : regions.empty() ? std::span<const Extent>(&whole, 1) : regions) {
    Carver carver(bytes.subspan(region.offset, region.length), game);
    carver.on_near_miss([&](const NearMiss& miss) {
      NearMisses& n = d.near_misses[std::string(miss.class_name) + ": " + miss.failure.kind()];
      ++n.count;
      if (n.first.size() < NearMisses::kExamples)
        n.first.push_back({file, region.offset + miss.offset, miss.failure.found});
    });
    Object object;
    while (auto extent = carver.next(object)) {
      steps.at(region.offset + extent->offset + extent->length);
      d.carved_bytes += extent->length;
      ++d.objects[std::string(class_name(object))];
      if (const auto* v = std::get_if<ac2::Visual>(&object))
        count_ac2(d.ac2, *v);
      else if (const auto* s = std::get_if<sws::LODSelector>(&object))
        count_sws(d.sws, *s);
      else
        count_sws(d.sws, std::get<sws::Visual>(object));
    }
  }
  steps.finish();
}

void Census::set_file(std::size_t file) {
  for (auto& [game, d] : dialects)
    for (auto& [check, misses] : d.near_misses)
      for (auto& example : misses.first) example.file = file;
}

void Census::merge(const Census& other) {
  for (const auto& [game, b] : other.dialects) {
    Dialect& a = dialects[game];
    a.files += b.files;
    a.bytes += b.bytes;
    a.carved_bytes += b.carved_bytes;
    add(a.objects, b.objects);
    add(a.ac2, b.ac2);
    add(a.sws, b.sws);
    for (const auto& [kind, misses] : b.near_misses) {
      NearMisses& n = a.near_misses[kind];
      n.count += misses.count;
      for (const auto& example : misses.first)
        if (n.first.size() < NearMisses::kExamples) n.first.push_back(example);
    }
  }
  archives.insert(archives.end(), other.archives.begin(), other.archives.end());
}

}  // namespace anvil::stats
