#include "gen/ac2_objects.hpp"

#include <algorithm>
#include <array>
#include <cstring>

namespace anvil::gen {

namespace {

// ac2 instance classes. LODSelectorInstance: 624,564 of the notes' 630,686 Visuals; the other 6,122
// split (chosen) as direct MeshInstanceData 2,195 (the notes' MeshInstanceData sample), LightInstance
// 1,800, SplashFXInstanceData 1,127, none 1,000.
constexpr std::array<u64, 5> kAc2InstanceWeights = {624'564, 2'195, 1'800, 1'127, 1'000};

// MeshInstanceData profiles: IsFake 1 on 2,036 of 2,195; VertexFormat 11 2,036, 0 103, 2 46;
// FakeMeshIndex non-zero on 2,034 (with IsFake).
struct MeshProfile {
  u8 is_fake;
  u8 vertex_format;
  bool fake_index;
};
constexpr std::array<MeshProfile, 4> kMeshProfiles = {{{1, 11, true}, {1, 11, false}, {0, 0, false}, {0, 2, false}}};
constexpr std::array<u64, 4> kMeshProfileWeights = {2'034, 2, 103, 46};

// Tail: the four bools 01000000 630,674, 00000000 12; DisplayOrder 0 630,684, 1 2.
constexpr std::array<u64, 2> kTailBoolWeights = {630'674, 12};
constexpr std::array<u64, 2> kDisplayOrderWeights = {630'684, 2};
// DataLayout 0 Default .. 4 Material, Default commonest (chosen split).
constexpr std::array<u64, 5> kDataLayoutWeights = {600'000, 12'000, 9'000, 3'000, 6'686};

// LODSelectorInstance slot patterns ('M' MeshInstanceData, 'I' ImpostorInstanceData, '.' empty), chosen.
constexpr std::array<const char*, 13> kSlotPatterns = {"M....", "MM...", "MMM..", "MMMM.", "MMMMM", "MI...", "MMI..",
                                                       "MMMI.", "MMMMI", ".M...", "M.M..", "I....", "....."};
constexpr std::array<u64, 13> kSlotPatternWeights = {12, 25, 22, 8, 3, 8, 10, 5, 2, 1, 1, 1, 2};

// Material infos per MeshInstanceData (chosen); modes 01 and 04 (chosen 85 : 15).
constexpr std::array<u64, 5> kMaterialCountWeights = {5, 60, 25, 7, 3};

}  // namespace

void Ac2Objects::draw_pools(u64 visuals) {
  for (int i = 0; i < 512; ++i) materials_.push_back(draw_.id64());
  u64 pool = std::clamp<u64>(visuals / 4, 1, 1 << 16);
  for (u64 i = 0; i < pool; ++i) selectors_.push_back(draw_.id64());
}

Ac2Instance Ac2Objects::draw_instance() { return static_cast<Ac2Instance>(rng_.pick(kAc2InstanceWeights)); }

std::string_view Ac2Objects::class_name(Ac2Instance kind) {
  static constexpr std::string_view names[] = {"LODSelectorInstance", "MeshInstanceData", "LightInstance",
                                               "SplashFXInstanceData", "none"};
  return names[static_cast<int>(kind)];
}

void Ac2Objects::mesh(ac2::MeshInstanceData& m, u64 own_id, bool direct, bool force_material) {
  std::size_t n = direct ? (rng_.chance(80, 100) ? 1 : rng_.between(2, 4)) : (rng_.chance(95, 100) ? 0 : 1);
  m.instances.resize(n);
  for (Matrix& x : m.instances) draw_.matrix(x);
  draw_.bounds(m.bounds);
  const MeshProfile& p = kMeshProfiles[rng_.pick(kMeshProfileWeights)];
  m.is_fake = p.is_fake;
  m.is_near_fake = 0;  // 1 on 0 of 2,195
  m.fake_mesh_index = p.fake_index ? static_cast<u32>(rng_.between(1, 4000)) : 0;
  m.compiled.id = Id64{0};  // 0 observed
  m.compiled.vertex_format = p.vertex_format;
  m.compiled.platform_version = 31;  // 31 on 2,195
  m.compiled.mesh_hash = Id64{draw_.nonzero64()};
  std::size_t a = rng_.pick(kMaterialCountWeights);
  if (force_material && a == 0) a = 1;
  m.materials.resize(a);
  for (ac2::MaterialInfo& info : m.materials) {
    info.id = Id64{draw_.id64()};
    info.owner = Id64{own_id};
    info.source = Id64{materials_[rng_.uniform(materials_.size())]};
    info.mode = rng_.chance(85, 100) ? 0x01 : 0x04;
    info.replacement = Id64{materials_[rng_.uniform(materials_.size())]};
  }
  m.instance_bounds.resize(n);  // a BoundingVolume per instance
  for (auto& b : m.instance_bounds) draw_.bounds(b);
}

void Ac2Objects::lod(ac2::LODSelectorInstance& lod, const char* pattern) {
  lod.instances.resize(rng_.pick(kLodMatrixWeights));
  for (Matrix& x : lod.instances) draw_.matrix(x);
  draw_.bounds(lod.bounds);
  lod.selector = Id64{selectors_[rng_.uniform(selectors_.size())]};
  for (int i = 0; i < 5; ++i) {
    std::optional<ac2::SlotObject>& slot = lod.slots[i];
    if (pattern[i] == '.') {
      slot.reset();
      continue;
    }
    slot.emplace();
    slot->id = Id64{draw_.id64()};
    if (pattern[i] == 'M') {
      mesh(slot->body.emplace<ac2::MeshInstanceData>(), slot->id.value, false, false);
    } else {
      auto& imp = slot->body.emplace<ac2::ImpostorInstanceData>();
      imp.instances.clear();
      draw_.bounds(imp.bounds);
      imp.impostor.bytes = {0x03, 0x00};
      u64 impostor_id = draw_.id64();
      std::memcpy(imp.impostor.bytes.data() + 2, &impostor_id, 8);
    }
  }
}

void Ac2Objects::tail(ac2::VisualTail& t) {
  t = {};
  bool usual = rng_.pick(kTailBoolWeights) == 0;
  t.can_be_occluder = usual ? 1 : 0;
  t.display_order = static_cast<u32>(rng_.pick(kDisplayOrderWeights));
  t.data_layout = static_cast<u32>(rng_.pick(kDataLayoutWeights));
  auto unit = [&] { return fraction(static_cast<std::int64_t>(rng_.between(0, 256)), 256); };
  auto wide = [&] { return fraction(static_cast<std::int64_t>(rng_.between(0, 256)), 64); };
  switch (t.data_layout) {
    case 0:  // Default: usually (1, 1, 1, 1) (chosen 99 in 100), else a tint
      t.data_f32 =
          rng_.chance(99, 100) ? std::array<f32, 4>{1, 1, 1, 1} : std::array<f32, 4>{unit(), unit(), unit(), 1};
      break;
    case 1:  // UI
      t.data_f32 =
          rng_.chance(1, 2) ? std::array<f32, 4>{1, 1, 1, 1} : std::array<f32, 4>{unit(), unit(), unit(), unit()};
      break;
    case 2:  // Skin
      t.data_u32 = {static_cast<u32>(rng_.between(0, 255)), 0, 0, 0};
      t.data_f32 = {unit(), unit(), unit(), 1};
      break;
    case 3:  // Gear
      t.data_u32 = {static_cast<u32>(rng_.between(0, 15)), static_cast<u32>(rng_.between(0, 15)), 0, 0};
      t.data_f32 = {wide(), wide(), wide(), wide()};
      break;
    default:  // Material: editor props' values
      for (u32& v : t.data_u32) v = static_cast<u32>(rng_.next());
      t.data_f32 = {wide(), wide(), wide(), wide()};
      break;
  }
}

void Ac2Objects::visual(Object& object, Ac2Instance kind, const char* pattern, bool force_material) {
  auto* held = std::get_if<ac2::Visual>(&object);
  ac2::Visual& v = held ? *held : object.emplace<ac2::Visual>();
  v.id = Id64{draw_.id64()};
  v.managed = 0;                                            // 0 on all
  v.active = rng_.chance(97, 100) ? 1 : 0;                  // chosen
  v.is_an_optimized_component = rng_.chance(10, 100);       // chosen
  v.is_partially_optimized = rng_.chance(1, 1000) ? 1 : 0;  // 0 on nearly all
  v.tail.reset();
  if (kind == Ac2Instance::none) {
    v.object = {{0x03, 0x00}, Id64{0}};
    v.instance.reset();
    tail(v.tail.emplace());
    return;
  }
  v.instance.emplace();
  v.instance->id = Id64{draw_.id64()};
  switch (kind) {
    case Ac2Instance::lod_selector: {
      auto& l = v.instance->body.emplace<ac2::LODSelectorInstance>();
      lod(l, pattern ? pattern : kSlotPatterns[rng_.pick(kSlotPatternWeights)]);
      v.object = {{0x01, 0x00}, l.selector};  // shows its LODSelector
      break;
    }
    case Ac2Instance::mesh:
      mesh(v.instance->body.emplace<ac2::MeshInstanceData>(), v.instance->id.value, true, force_material);
      v.object = {{0x01, 0x00}, Id64{draw_.id64()}};  // shows a Mesh
      break;
    case Ac2Instance::light: {
      auto& light = v.instance->body.emplace<ac2::LightInstance>();
      draw_.safe_bytes(light.body.bytes.data(), light.body.bytes.size());
      v.object = {{0x01, 0x00}, Id64{draw_.id64()}};
      break;
    }
    case Ac2Instance::splash: {
      auto& unknown = v.instance->body.emplace<ac2::UnknownInstance>();
      unknown.class_id = class_id::kSplashFXInstanceData;
      unknown.body.bytes.resize(rng_.between(0, 96));
      draw_.safe_bytes(unknown.body.bytes.data(), unknown.body.bytes.size());
      v.object = {{0x03, 0x00}, Id64{0}};
      break;
    }
    case Ac2Instance::none:
      break;
  }
  if (kind != Ac2Instance::light) tail(v.tail.emplace());
}

}  // namespace anvil::gen
