// The generator: one Visual (or LODSelector) at a time, built as a model object with the notes'
// observed proportions, encoded with its layout declaration, and surrounded by signature-free filler.
//
// Proportions (seed notes, 004_c2a5cef028ef5c3f.txt). Where the notes give counts they are used as the
// weights themselves; where they only say "most", "some" or "usually", the weight is chosen here and
// marked "chosen".
#include "gen/generator.hpp"

#include <absl/strings/str_cat.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "gen/random.hpp"
#include "writer/atomic_file.hpp"
#include "writer/encode.hpp"

namespace anvil::gen {

namespace {

constexpr std::size_t kChunk = std::size_t{1} << 22;

// The three top-level signatures, as stored.
constexpr std::array<u32, 3> kSignatures = {class_id::kVisual, class_id::kLODSelector,
                                            class_id::kVisualShaderConstants};

// Whether a byte occurs in any signature: such bytes never appear in filler or opaque bodies. Nor does
// 00, so that the 00 before an object is always the inline-pointer tag the generator put there.
constexpr std::array<bool, 256> make_signature_bytes() {
  std::array<bool, 256> table{};
  table[0] = true;
  for (u32 sig : kSignatures)
    for (int i = 0; i < 4; ++i) table[(sig >> (8 * i)) & 0xFF] = true;
  return table;
}
constexpr std::array<bool, 256> kSignatureByte = make_signature_bytes();

bool holds_signature(const u8* p, std::size_t n) {
  for (std::size_t i = 0; i + 4 <= n; ++i) {
    u32 w;
    std::memcpy(&w, p + i, 4);
    for (u32 sig : kSignatures)
      if (w == sig) return true;
  }
  return false;
}

f32 f(std::int64_t numerator, int denominator) {
  // Exact: |numerator| < 2^24 and the denominator a power of two.
  return static_cast<f32>(numerator) / static_cast<f32>(denominator);
}

// --- the observed distributions -------------------------------------------------------------------

// ac2 instance classes. LODSelectorInstance: 624,564 of the notes' 630,686 Visuals; the other 6,122
// split (chosen) as direct MeshInstanceData 2,195 (the notes' MeshInstanceData sample), LightInstance
// 1,800, SplashFXInstanceData 1,127, none 1,000.
enum class Ac2Instance { lod_selector, mesh, light, splash, none };
constexpr std::array<u64, 5> kAc2InstanceWeights = {624'564, 2'195, 1'800, 1'127, 1'000};

// sws instance classes, from the shown objects of level 01: Mesh 3,587 + RealTreeMesh 30 + DynamicMesh 7
// -> MeshInstanceData; LODSelector 200 -> LODSelectorInstance; ParticleSystem 122 + 0xC3120087 20 -> none.
// (Lights have a LightInstance, which has no known sws length: not generated as Visuals.)
enum class SwsInstance { mesh, lod_selector, none };
constexpr std::array<u64, 3> kSwsInstanceWeights = {3'624, 200, 142};

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

// Instance matrix counts (chosen): a LODSelectorInstance is often placed once by its owner (k = 0).
constexpr std::array<u64, 5> kLodMatrixWeights = {40, 50, 6, 3, 1};
// Material infos per MeshInstanceData (chosen); modes 01 and 04 (chosen 85 : 15).
constexpr std::array<u64, 5> kMaterialCountWeights = {5, 60, 25, 7, 3};

// sws LODSelector (chosen): used slots 1..5, Category, Generated, flags, trailing byte.
constexpr std::array<u64, 5> kUsedSlotWeights = {10, 35, 35, 15, 5};
constexpr std::array<u64, 4> kCategoryWeights = {60, 25, 10, 5};

}  // namespace

std::span<const Planted> planted_kinds(Game game) {
  static constexpr Planted ac2[] = {Planted::instance_tag, Planted::streams_count, Planted::material_info_class,
                                    Planted::tail_class, Planted::slot_class};
  static constexpr Planted sws[] = {Planted::light_instance, Planted::submesh_class, Planted::compiled_constant};
  if (game == Game::ac2) return ac2;
  return sws;
}

std::string_view planted_name(Planted kind) {
  switch (kind) {
    case Planted::instance_tag:
      return "instance_tag";
    case Planted::streams_count:
      return "streams_count";
    case Planted::material_info_class:
      return "material_info_class";
    case Planted::tail_class:
      return "tail_class";
    case Planted::slot_class:
      return "slot_class";
    case Planted::light_instance:
      return "light_instance";
    case Planted::submesh_class:
      return "submesh_class";
    case Planted::compiled_constant:
      return "compiled_constant";
  }
  return "?";
}

const PlantedCheck& planted_check(Planted kind) {
  static const PlantedCheck checks[] = {
      // in the order of Planted
      {CheckedField::kPointerTag, "instance", 0x05},
      {CheckedField::kConstant, "streams count", 3},
      {CheckedField::kConstant, "material info class", 0xDEADBEEF},
      {CheckedField::kConstant, "VisualShaderConstants class", class_id::kVisualShaderConstants - 1},
      {CheckedField::kClass, "slot class", 0x12345678},
      {CheckedField::kClass, "instance class", class_id::kLightInstance},
      {CheckedField::kConstant, "SubMeshInstanceData class", class_id::kSubMeshInstanceData + 1},
      {CheckedField::kConstant, "CompiledMeshInstance constant 21", 22},
  };
  return checks[static_cast<std::size_t>(kind)];
}

absl::Status validate(const Options& options) {
  if (options.game == Game::ac2 && options.selectors && *options.selectors != 0)
    return absl::InvalidArgumentError("--selectors is for --game sws (ac2 has no top-level LODSelector)");
  constexpr u64 kMax = u64{1} << 32;
  if (options.visuals >= kMax || options.selectors.value_or(0) >= kMax)
    return absl::InvalidArgumentError("at most 4294967295 objects");
  u64 objects = options.visuals + options.selectors.value_or(options.visuals * 221 / 3966);
  if (options.game == Game::ac2) objects = options.visuals;
  if (options.near_misses > objects + 1)
    return absl::InvalidArgumentError(
        absl::StrCat("at most one planted near miss per gap: ", objects + 1, " for ", objects, " objects"));
  return absl::OkStatus();
}

namespace {

class Generator {
 public:
  Generator(const Options& options, const std::function<void(std::span<const u8>)>& sink)
      : options_(options), rng_(options.seed), sink_(sink) {
    record_.game = options.game;
    u64 s = options.seed ^ 0xA5A5A5A5DEADBEEFULL;
    id_salt_ = splitmix64(s);
    buffer_.reserve(kChunk + (std::size_t{1} << 16));
  }

  Record run() {
    if (options_.game == Game::ac2)
      run_ac2();
    else
      run_sws();
    flush();
    record_.size = flushed_;
    if (options_.progress) options_.progress(flushed_, flushed_);
    return std::move(record_);
  }

 private:
  // --- output ---------------------------------------------------------------------------------------

  std::size_t here() const { return flushed_ + buffer_.size(); }

  void flush() {
    if (buffer_.empty()) return;
    sink_(buffer_);
    flushed_ += buffer_.size();
    buffer_.clear();
    if (options_.progress && record_.visuals > 0)
      options_.progress(flushed_,
                        std::max<std::size_t>(flushed_, static_cast<std::size_t>(static_cast<double>(flushed_) *
                                                                                 options_.visuals / record_.visuals)));
  }

  void safe_bytes(u8* out, std::size_t n) {
    std::size_t i = 0;
    while (i < n) {
      u64 r = rng_.next();
      for (int b = 0; b < 8 && i < n; ++b, r >>= 8) {
        u8 byte = static_cast<u8>(r);
        if (!kSignatureByte[byte]) out[i++] = byte;
      }
    }
  }

  void filler(std::size_t n) {
    std::size_t at = buffer_.size();
    buffer_.resize(at + n);
    safe_bytes(buffer_.data() + at, n);
  }

  // Opaque bytes between objects: filler, perhaps a planted near miss, and perhaps the 00 tag of an
  // inline pointer right before the next object. Never empty, so objects never touch.
  void gap(bool before_object) {
    if (planting_left_ > 0 && rng_.uniform(gaps_left_) < planting_left_) {
      filler(rng_.between(1, 16));
      plant();
      --planting_left_;
    }
    --gaps_left_;
    std::size_t n = rng_.pick({10, 30, 30, 20, 10});  // 0, 1-8, 9-32, 33-64, 65-256 bytes (chosen)
    static constexpr std::array<std::pair<u64, u64>, 5> ranges = {{{0, 0}, {1, 8}, {9, 32}, {33, 64}, {65, 256}}};
    std::size_t len = rng_.between(ranges[n].first, ranges[n].second);
    bool zero = before_object && rng_.chance(15, 100);  // chosen
    if (len == 0 && !zero) len = 1;
    filler(len);
    if (zero) {
      buffer_.push_back(0x00);
      ++record_.behind_zero;
    }
  }

  void emit(const Object& object) {
    std::size_t at = here();
    std::size_t before = buffer_.size();
    encode_object(object, buffer_);
    std::size_t length = buffer_.size() - before;
    record_.carved_bytes += length;
    if (options_.keep_objects) {
      record_.objects.push_back(object);
      record_.placed.push_back({at, length});
    }
    if (buffer_.size() >= kChunk) flush();
  }

  // --- ids ------------------------------------------------------------------------------------------

  // Unique (a bijection of a counter), non-zero, and holding no signature in its bytes.
  u64 id64() {
    for (;;) {
      u64 s = id_salt_ + (id_counter_++) * 0x9E3779B97F4A7C15ULL;
      u64 id = splitmix64(s);
      if (id != 0 && !holds_signature(reinterpret_cast<const u8*>(&id), 8)) return id;
    }
  }
  u32 id32() {
    for (;;) {
      u32 id = mix32(static_cast<u32>(id_salt_) + static_cast<u32>(id_counter_++));
      if (id != 0 && !holds_signature(reinterpret_cast<const u8*>(&id), 4)) return id;
    }
  }
  u64 nonzero64() {
    for (;;)
      if (u64 v = rng_.next(); v != 0) return v;
  }

  // --- shared pieces --------------------------------------------------------------------------------

  void matrix(Matrix& m) {
    m = {};
    std::int64_t scale = rng_.chance(80, 100) ? 8 : static_cast<std::int64_t>(rng_.between(2, 32));
    m[0] = m[5] = m[10] = f(scale, 8);
    m[12] = f(rng_.between_signed(-65536, 65536), 16);
    m[13] = f(rng_.between_signed(-65536, 65536), 16);
    m[14] = f(rng_.between_signed(-4096, 4096), 16);
    m[15] = 1.0f;
  }

  template <std::size_t N>
  void bounds(Opaque<N>& b) {
    static_assert(N == 40);
    std::array<f32, 10> v{};
    for (int i = 0; i < 3; ++i) {
      std::int64_t centre = rng_.between_signed(-65536, 65536), half = rng_.between_signed(1, 4096);
      v[i] = f(centre - half, 16);
      v[3 + i] = f(centre + half, 16);
    }
    v[9] = f(rng_.between_signed(1, 8192), 16);
    std::memcpy(b.bytes.data(), v.data(), 40);
  }

  // --- ac2 ------------------------------------------------------------------------------------------

  void ac2_mesh(ac2::MeshInstanceData& m, u64 own_id, bool direct, bool force_material = false) {
    std::size_t n = direct ? (rng_.chance(80, 100) ? 1 : rng_.between(2, 4)) : (rng_.chance(95, 100) ? 0 : 1);
    m.instances.resize(n);
    for (Matrix& x : m.instances) matrix(x);
    bounds(m.bounds);
    const MeshProfile& p = kMeshProfiles[rng_.pick(kMeshProfileWeights)];
    m.is_fake = p.is_fake;
    m.is_near_fake = 0;  // 1 on 0 of 2,195
    m.fake_mesh_index = p.fake_index ? static_cast<u32>(rng_.between(1, 4000)) : 0;
    m.compiled.id = Id64{0};  // 0 observed
    m.compiled.vertex_format = p.vertex_format;
    m.compiled.platform_version = 31;  // 31 on 2,195
    m.compiled.mesh_hash = Id64{nonzero64()};
    std::size_t a = rng_.pick(kMaterialCountWeights);
    if (force_material && a == 0) a = 1;
    m.materials.resize(a);
    for (ac2::MaterialInfo& info : m.materials) {
      info.id = Id64{id64()};
      info.owner = Id64{own_id};
      info.source = Id64{materials_[rng_.uniform(materials_.size())]};
      info.mode = rng_.chance(85, 100) ? 0x01 : 0x04;
      info.replacement = Id64{materials_[rng_.uniform(materials_.size())]};
    }
    m.instance_bounds.resize(n);  // a BoundingVolume per instance
    for (auto& b : m.instance_bounds) bounds(b);
  }

  void ac2_lod(ac2::LODSelectorInstance& lod, const char* pattern) {
    lod.instances.resize(rng_.pick(kLodMatrixWeights));
    for (Matrix& x : lod.instances) matrix(x);
    bounds(lod.bounds);
    lod.selector = Id64{selectors64_[rng_.uniform(selectors64_.size())]};
    for (int i = 0; i < 5; ++i) {
      std::optional<ac2::SlotObject>& slot = lod.slots[i];
      if (pattern[i] == '.') {
        slot.reset();
        continue;
      }
      slot.emplace();
      slot->id = Id64{id64()};
      if (pattern[i] == 'M') {
        ac2_mesh(slot->body.emplace<ac2::MeshInstanceData>(), slot->id.value, false);
      } else {
        auto& imp = slot->body.emplace<ac2::ImpostorInstanceData>();
        imp.instances.clear();
        bounds(imp.bounds);
        imp.impostor.bytes = {0x03, 0x00};
        u64 impostor_id = id64();
        std::memcpy(imp.impostor.bytes.data() + 2, &impostor_id, 8);
      }
    }
  }

  void ac2_tail(ac2::VisualTail& t) {
    t = {};
    bool usual = rng_.pick(kTailBoolWeights) == 0;
    t.can_be_occluder = usual ? 1 : 0;
    t.display_order = static_cast<u32>(rng_.pick(kDisplayOrderWeights));
    t.data_layout = static_cast<u32>(rng_.pick(kDataLayoutWeights));
    auto unit = [&] { return f(static_cast<std::int64_t>(rng_.between(0, 256)), 256); };
    auto wide = [&] { return f(static_cast<std::int64_t>(rng_.between(0, 256)), 64); };
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

  // One ac2 Visual of the given instance class into `object`.
  void ac2_visual(Object& object, Ac2Instance kind, const char* pattern = nullptr, bool force_material = false) {
    ac2::Visual& v = object.index() == 0 ? std::get<0>(object) : object.emplace<0>();
    v.id = Id64{id64()};
    v.managed = 0;                                            // 0 on all
    v.active = rng_.chance(97, 100) ? 1 : 0;                  // chosen
    v.is_an_optimized_component = rng_.chance(10, 100);       // chosen
    v.is_partially_optimized = rng_.chance(1, 1000) ? 1 : 0;  // 0 on nearly all
    v.tail.reset();
    if (kind == Ac2Instance::none) {
      v.object = {{0x03, 0x00}, Id64{0}};
      v.instance.reset();
      ac2_tail(v.tail.emplace());
      return;
    }
    v.instance.emplace();
    v.instance->id = Id64{id64()};
    switch (kind) {
      case Ac2Instance::lod_selector: {
        auto& lod = v.instance->body.emplace<ac2::LODSelectorInstance>();
        ac2_lod(lod, pattern ? pattern : kSlotPatterns[rng_.pick(kSlotPatternWeights)]);
        v.object = {{0x01, 0x00}, lod.selector};  // shows its LODSelector
        break;
      }
      case Ac2Instance::mesh:
        ac2_mesh(v.instance->body.emplace<ac2::MeshInstanceData>(), v.instance->id.value, true, force_material);
        v.object = {{0x01, 0x00}, Id64{id64()}};  // shows a Mesh
        break;
      case Ac2Instance::light: {
        auto& light = v.instance->body.emplace<ac2::LightInstance>();
        safe_bytes(light.body.bytes.data(), light.body.bytes.size());
        v.object = {{0x01, 0x00}, Id64{id64()}};
        break;
      }
      case Ac2Instance::splash: {
        auto& unknown = v.instance->body.emplace<ac2::UnknownInstance>();
        unknown.class_id = class_id::kSplashFXInstanceData;
        unknown.body.bytes.resize(rng_.between(0, 96));
        safe_bytes(unknown.body.bytes.data(), unknown.body.bytes.size());
        v.object = {{0x03, 0x00}, Id64{0}};
        break;
      }
      case Ac2Instance::none:
        break;
    }
    if (kind != Ac2Instance::light) ac2_tail(v.tail.emplace());
  }

  static std::string_view ac2_class_name(Ac2Instance kind) {
    static constexpr std::string_view names[] = {"LODSelectorInstance", "MeshInstanceData", "LightInstance",
                                                 "SplashFXInstanceData", "none"};
    return names[static_cast<int>(kind)];
  }

  void run_ac2() {
    for (int i = 0; i < 512; ++i) materials_.push_back(id64());
    u64 pool = std::clamp<u64>(options_.visuals / 4, 1, 1 << 16);
    for (u64 i = 0; i < pool; ++i) selectors64_.push_back(id64());
    start_gaps(options_.visuals);
    filler(rng_.between(16, 64));  // a header of sorts
    Object object;
    for (u64 i = 0; i < options_.visuals; ++i) {
      gap(true);
      auto kind = static_cast<Ac2Instance>(rng_.pick(kAc2InstanceWeights));
      ac2_visual(object, kind);
      ++record_.instance_classes[std::string(ac2_class_name(kind))];
      ++record_.visuals;
      emit(object);
    }
    gap(false);
  }

  // --- sws ------------------------------------------------------------------------------------------

  void sws_mesh(sws::MeshInstanceData& m) {
    m.mesh = Id32{id32()};
    m.prt = Id32{rng_.chance(1, 2) ? 0 : id32()};
    m.submeshes.resize(1 + rng_.pick({50, 30, 15, 5}));
    for (auto& s : m.submeshes) {
      s.id = Id32{id32()};
      s.submesh = Id32{id32()};
      s.ao = Id32{rng_.chance(30, 100) ? 0 : id32()};
    }
    m.compiled.id = Id32{id32()};
    m.compiled.data.bytes.resize(rng_.between(0, 48));
    safe_bytes(m.compiled.data.bytes.data(), m.compiled.data.bytes.size());
    m.compiled.hash = Id64{nonzero64()};
    m.compiled.key = static_cast<u32>(rng_.next());
  }

  void sws_selector(sws::LODSelector& s) {
    s = {};
    s.managed = 0;
    s.id = Id32{id32()};
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
      safe_bytes(d.pre.bytes.data(), d.pre.bytes.size());
      d.object = Id32{id32()};
      d.switch_distance = f(distance[i], 4);
      d.flag = rng_.chance(20, 100) ? 1 : 0;
    }
    s.trailing = rng_.chance(10, 100) ? 1 : 0;
  }

  void sws_visual(Object& object, SwsInstance kind) {
    sws::Visual& v = object.index() == 2 ? std::get<2>(object) : object.emplace<2>();
    v.managed = 0;
    v.id = Id32{id32()};
    v.active = rng_.chance(97, 100) ? 1 : 0;
    v.is_an_optimized_component = rng_.chance(10, 100);
    v.is_partially_optimized = rng_.chance(1, 1000) ? 1 : 0;
    safe_bytes(v.unnamed.bytes.data(), v.unnamed.bytes.size());
    if (kind == SwsInstance::none) {
      v.instance.reset();
      return;
    }
    v.instance.emplace();
    v.instance->id = Id32{id32()};
    if (kind == SwsInstance::mesh) {
      sws_mesh(v.instance->body.emplace<sws::MeshInstanceData>());
      return;
    }
    auto& lod = v.instance->body.emplace<sws::LODSelectorInstance>();
    lod.instances.resize(rng_.pick(kLodMatrixWeights));
    for (Matrix& x : lod.instances) matrix(x);
    bounds(lod.bounds);
    std::array<bool, 5> used{};
    if (selectors_.empty()) {
      lod.selector = Id32{id32()};
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
      lod.slots[i]->id = Id32{id32()};
      sws_mesh(std::get<sws::MeshInstanceData>(lod.slots[i]->body));
    }
  }

  void run_sws() {
    u64 selectors = options_.selectors.value_or(options_.visuals * 221 / 3966);
    selectors_.resize(selectors);
    for (sws::LODSelector& s : selectors_) sws_selector(s);
    start_gaps(options_.visuals + selectors);
    filler(rng_.between(16, 64));
    static constexpr std::string_view names[] = {"MeshInstanceData", "LODSelectorInstance", "none"};
    Object object;
    u64 visuals_left = options_.visuals, selectors_left = selectors;
    while (visuals_left + selectors_left > 0) {
      gap(true);
      if (rng_.uniform(visuals_left + selectors_left) < selectors_left) {
        object = selectors_[selectors - selectors_left];
        --selectors_left;
        ++record_.selectors;
      } else {
        auto kind = static_cast<SwsInstance>(rng_.pick(kSwsInstanceWeights));
        sws_visual(object, kind);
        ++record_.instance_classes[std::string(names[static_cast<int>(kind)])];
        --visuals_left;
        ++record_.visuals;
      }
      emit(object);
    }
    gap(false);
  }

  // --- planted near misses ----------------------------------------------------------------------------

  void start_gaps(u64 objects) {
    gaps_left_ = objects + 1;
    planting_left_ = options_.near_misses;
  }

  // A valid object encoded, then the value of one of its checks overwritten: the check is found by its
  // name in the declaration (model/check_locator.hpp), so the offsets are the declaration's. Written as
  // opaque bytes.
  void plant() {
    std::span<const Planted> kinds = planted_kinds(options_.game);
    Planted kind = kinds[planted_count_++ % kinds.size()];
    Object object;
    switch (kind) {
      case Planted::instance_tag:
      case Planted::streams_count:
        ac2_visual(object, Ac2Instance::mesh);
        break;
      case Planted::material_info_class:
        ac2_visual(object, Ac2Instance::mesh, nullptr, true);
        break;
      case Planted::tail_class:
        ac2_visual(object, Ac2Instance::none);
        break;
      case Planted::slot_class:
        ac2_visual(object, Ac2Instance::lod_selector, "M....");
        break;
      case Planted::light_instance:
      case Planted::submesh_class:  // a MeshInstanceData has at least one submesh
      case Planted::compiled_constant:
        sws_visual(object, SwsInstance::mesh);
        break;
    }
    const PlantedCheck& plant = planted_check(kind);
    std::vector<CheckedField> checks = std::visit([](const auto& o) { return checked_fields(o); }, object);
    auto check = std::find_if(checks.begin(), checks.end(),
                              [&](const CheckedField& c) { return c.kind == plant.kind && c.what == plant.what; });
    if (check == checks.end()) throw std::logic_error("gen: no check named " + std::string(plant.what));
    std::vector<u8> bytes;
    encode_object(object, bytes);
    u32 value = plant.value;
    std::memcpy(bytes.data() + check->offset, &value, check->size);  // little-endian: its low bytes
    record_.near_misses.push_back({here(), kind, check->failure()});
    buffer_.insert(buffer_.end(), bytes.begin(), bytes.end());
    filler(rng_.between(1, 16));
  }

  Options options_;
  Rng rng_;
  const std::function<void(std::span<const u8>)>& sink_;
  Record record_;
  std::vector<u8> buffer_;
  std::size_t flushed_ = 0;
  u64 id_salt_ = 0;
  u64 id_counter_ = 0;
  std::vector<u64> materials_;
  std::vector<u64> selectors64_;
  std::vector<sws::LODSelector> selectors_;
  u64 gaps_left_ = 1;
  u64 planting_left_ = 0;
  u64 planted_count_ = 0;
};

}  // namespace

Record generate(const Options& options, const std::function<void(std::span<const u8>)>& sink) {
  if (auto s = validate(options); !s.ok()) throw std::invalid_argument(std::string(s.message()));
  return Generator(options, sink).run();
}

std::vector<u8> generate_bytes(const Options& options, Record* record) {
  std::vector<u8> out;
  Record r = generate(options, [&](std::span<const u8> chunk) { out.insert(out.end(), chunk.begin(), chunk.end()); });
  if (record) *record = std::move(r);
  return out;
}

absl::StatusOr<Record> generate_file(const Options& options, const std::string& path) {
  if (auto s = validate(options); !s.ok()) return s;
  AtomicFile file;
  if (auto s = file.open(path); !s.ok()) return s;
  bool ok = true;
  int error = 0;
  Record record = generate(options, [&](std::span<const u8> chunk) {
    if (ok && std::fwrite(chunk.data(), 1, chunk.size(), file.stream()) != chunk.size()) {
      ok = false;
      error = errno;
    }
  });
  if (!ok) return absl::InternalError(absl::StrCat(path, ": cannot write: ", std::strerror(error)));
  if (auto s = file.commit(); !s.ok()) return s;
  return record;
}

}  // namespace anvil::gen
