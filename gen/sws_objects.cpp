#include "gen/sws_objects.hpp"

#include <algorithm>
#include <array>

namespace anvil::gen {

namespace {

// sws instance classes, from the shown objects of level 01: Mesh 3,587 + RealTreeMesh 30 + DynamicMesh 7
// -> MeshInstanceData; LODSelector 200 -> LODSelectorInstance; ParticleSystem 122 + 0xC3120087 20 -> none.
constexpr std::array<u64, 3> kSwsInstanceWeights = {3'624, 200, 142};

// sws LODSelector (chosen): used slots 1..5, Category, Generated, flags, trailing byte.
constexpr std::array<u64, 5> kUsedSlotWeights = {10, 35, 35, 15, 5};
constexpr std::array<u64, 4> kCategoryWeights = {60, 25, 10, 5};

}  // namespace

void SwsObjects::draw_selectors(u64 count) {
  selectors_.resize(count);
  for (sws::LODSelector& s : selectors_) selector(s);
}

SwsInstance SwsObjects::draw_instance() { return static_cast<SwsInstance>(rng_.pick(kSwsInstanceWeights)); }

std::string_view SwsObjects::class_name(SwsInstance kind) {
  static constexpr std::string_view names[] = {"MeshInstanceData", "LODSelectorInstance", "none"};
  return names[static_cast<int>(kind)];
}

void SwsObjects::mesh(sws::MeshInstanceData& m) {
  m.mesh = Id32{draw_.id32()};
  m.prt = Id32{rng_.chance(1, 2) ? 0 : draw_.id32()};
  m.submeshes.resize(1 + rng_.pick({50, 30, 15, 5}));
  for (auto& s : m.submeshes) {
    s.id = Id32{draw_.id32()};
    s.submesh = Id32{draw_.id32()};
    s.ao = Id32{rng_.chance(30, 100) ? 0 : draw_.id32()};
  }
  m.compiled.id = Id32{draw_.id32()};
  m.compiled.data.bytes.resize(rng_.between(0, 48));
  draw_.safe_bytes(m.compiled.data.bytes.data(), m.compiled.data.bytes.size());
  m.compiled.hash = Id64{draw_.nonzero64()};
  m.compiled.key = static_cast<u32>(rng_.next());
}

void SwsObjects::selector(sws::LODSelector& s) {
  s = {};
  s.managed = 0;
  s.id = Id32{draw_.id32()};
  s.category = static_cast<u32>(rng_.pick(kCategoryWeights));
  s.generated = rng_.chance(30, 100) ? 1 : 0;
  std::size_t used = 1 + rng_.pick(kUsedSlotWeights);
  std::array<bool, 5> in_use{};
  for (std::size_t i = 0; i < used; ++i) in_use[i] = true;
  if (used < 5 && used > 1 && rng_.chance(5, 100)) std::swap(in_use[used - 1], in_use[used]);  // a gap
  std::array<std::int64_t, 5> distance{};
  for (auto& d : distance) d = rng_.between_signed(4, 16000);             // quarters of a unit
  if (rng_.chance(60, 100)) std::sort(distance.begin(), distance.end());  // else not monotonic (mostly)
  for (std::size_t i = 0; i < 5; ++i) {
    sws::LODDescriptor& d = s.slots[i];
    if (!in_use[i]) continue;  // unused: all zero
    draw_.safe_bytes(d.pre.bytes.data(), d.pre.bytes.size());
    d.object = Id32{draw_.id32()};
    d.switch_distance = fraction(distance[i], 4);
    d.flag = rng_.chance(20, 100) ? 1 : 0;
  }
  s.trailing = rng_.chance(10, 100) ? 1 : 0;
}

void SwsObjects::visual(Object& object, SwsInstance kind) {
  auto* held = std::get_if<sws::Visual>(&object);
  sws::Visual& v = held ? *held : object.emplace<sws::Visual>();
  v.managed = 0;
  v.id = Id32{draw_.id32()};
  v.active = rng_.chance(97, 100) ? 1 : 0;
  v.is_an_optimized_component = rng_.chance(10, 100);
  v.is_partially_optimized = rng_.chance(1, 1000) ? 1 : 0;
  draw_.safe_bytes(v.unnamed.bytes.data(), v.unnamed.bytes.size());
  if (kind == SwsInstance::none) {
    v.instance.reset();
    return;
  }
  v.instance.emplace();
  v.instance->id = Id32{draw_.id32()};
  if (kind == SwsInstance::mesh) {
    mesh(v.instance->body.emplace<sws::MeshInstanceData>());
    return;
  }
  auto& lod = v.instance->body.emplace<sws::LODSelectorInstance>();
  lod.instances.resize(rng_.pick(kLodMatrixWeights));
  for (Matrix& x : lod.instances) draw_.matrix(x);
  draw_.bounds(lod.bounds);
  std::array<bool, 5> used{};
  if (selectors_.empty()) {
    lod.selector = Id32{draw_.id32()};
    used = {true, true, false, false, false};
  } else {  // the five slots align to the selector's five descriptors
    const sws::LODSelector& s = selectors_[rng_.uniform(selectors_.size())];
    lod.selector = s.id;
    for (int i = 0; i < 5; ++i) used[i] = s.slots[i].object.value != 0;
  }
  for (int i = 0; i < 5; ++i) {
    if (!used[i]) {
      lod.slots[i].reset();
      continue;
    }
    lod.slots[i].emplace();
    lod.slots[i]->id = Id32{draw_.id32()};
    mesh(std::get<sws::MeshInstanceData>(lod.slots[i]->body));
  }
}

}  // namespace anvil::gen
