// Generated variants of every structure, built as model values and encoded through their layout
// declarations, with f32 edge values in matrices and the tail: each embedded in filler must carve
// back into exactly the objects written and round-trip byte for byte.
#include <gtest/gtest.h>

#include <bit>
#include <cmath>

#include "reader/level.hpp"
#include "tests/test_support.hpp"
#include "writer/encode.hpp"

namespace anvil {
namespace {

// -0.0, smallest subnormal, a subnormal, NaN payloads (quiet, signalling, negative), infinities, the
// largest finite, 0.1.
const u32 kEdgeBits[] = {0x80000000, 0x00000001, 0x007fffff, 0x7fc12345, 0x7f800001, 0xffc00000,
                         0x7f800000, 0xff800000, 0x7f7fffff, 0x3dcccccd, 0x00000000, 0x3f800000};

f32 edge(std::size_t i) { return std::bit_cast<f32>(kEdgeBits[i % std::size(kEdgeBits)]); }

Matrix edge_matrix(std::size_t seed) {
  Matrix m{};
  for (std::size_t i = 0; i < 16; ++i) m[i] = edge(seed + i);
  return m;
}

Opaque<40> bounds(u8 fill) {
  Opaque<40> b;
  b.bytes.fill(fill);
  return b;
}

ac2::VisualTail tail(std::size_t seed) {
  ac2::VisualTail t;
  t.can_be_occluder = 1;
  t.display_order = static_cast<u32>(seed % 2);
  t.data_layout = static_cast<u32>(seed % 5);
  t.layout_ids[2].value = 0xFFFFFFFFFFFFFFFFull;
  for (std::size_t i = 0; i < 4; ++i) {
    t.data_u32[i] = static_cast<u32>(seed * 7 + i);
    t.data_f32[i] = edge(seed + i);
  }
  return t;
}

ac2::MeshInstanceData mesh(std::size_t n, std::size_t materials, std::size_t seed) {
  ac2::MeshInstanceData m;
  for (std::size_t i = 0; i < n; ++i) m.instances.push_back(edge_matrix(seed + i));
  m.bounds = bounds(0x11);
  m.is_fake = 1;
  m.fake_mesh_index = 434;
  m.compiled.vertex_format = 11;
  m.compiled.platform_version = 31;
  m.compiled.mesh_hash.value = 0x9E3779B97F4A7C15ull;
  for (std::size_t i = 0; i < materials; ++i)
    m.materials.push_back({{0x1000 + i}, {0x2000}, {0x3000 + i}, static_cast<u8>(i % 2 ? 4 : 1), {0x4000 + i}});
  for (std::size_t i = 0; i < n; ++i) m.instance_bounds.push_back(bounds(static_cast<u8>(i)));
  return m;
}

ac2::Visual visual(u64 id, std::optional<ac2::Instance> instance, std::size_t seed) {
  ac2::Visual v;
  v.id.value = id;
  v.active = 1;
  v.object.tag = {0x01, 0x00};
  v.object.id.value = 0x00200000000000ABull;  // above 2^53
  v.instance = std::move(instance);
  if (!(v.instance && v.instance->is_light())) v.tail = tail(seed);
  return v;
}

std::vector<ac2::Visual> ac2_variants() {
  std::vector<ac2::Visual> out;
  out.push_back(visual(1, std::nullopt, 0));
  for (std::size_t k : {0u, 1u, 3u}) {
    ac2::LODSelectorInstance lod;
    for (std::size_t i = 0; i < k; ++i) lod.instances.push_back(edge_matrix(i * 3));
    lod.bounds = bounds(0x22);
    lod.selector.value = 0xABCDEF;
    lod.slots[0] = ac2::SlotObject{{0x50}, mesh(k, 2, k)};
    ac2::ImpostorInstanceData imp;
    imp.instances.push_back(edge_matrix(5));
    imp.impostor.bytes = {0x03, 0x00, 1, 2, 3, 4, 5, 6, 7, 8};
    lod.slots[2 + k % 2] = ac2::SlotObject{{0x51}, imp};
    lod.slots[4] = ac2::SlotObject{{0x52}, mesh(0, 0, 1)};
    out.push_back(visual(10 + k, ac2::Instance{{0x60 + k}, lod}, k));
  }
  out.push_back(visual(20, ac2::Instance{{0x70}, mesh(2, 3, 9)}, 2));
  ac2::LightInstance light;
  for (std::size_t i = 0; i < light.body.bytes.size(); ++i) light.body.bytes[i] = static_cast<u8>(i * 13 % 251);
  out.push_back(visual(30, ac2::Instance{{0x80}, light}, 3));
  for (std::size_t body : {0u, 1u, 57u}) {
    ac2::UnknownInstance unknown;
    unknown.class_id = body == 1 ? class_id::kSplashFXInstanceData : 0x12345678;
    unknown.body.bytes.assign(body, 0x5C);
    out.push_back(visual(40 + body, ac2::Instance{{0x90}, unknown}, 4));
  }
  return out;
}

std::vector<Object> sws_variants() {
  std::vector<Object> out;
  sws::LODSelector selector;
  selector.id.value = 0xFFFFFFFF;
  selector.category = 3;
  const f32 distances[] = {10, 5, -0.0f, std::bit_cast<f32>(0x7fc00001u), 40};
  for (std::size_t i = 0; i < 5; ++i) {
    selector.slots[i].pre.bytes.fill(static_cast<u8>(i));
    selector.slots[i].object.value = i == 3 ? 0 : 0x100 + static_cast<u32>(i);
    selector.slots[i].switch_distance = distances[i];
    selector.slots[i].flag = static_cast<u8>(i);
  }
  out.push_back(selector);

  sws::MeshInstanceData m;
  m.mesh.value = 0x1234;
  m.prt.value = 7;
  m.submeshes = {{{1}, {2}, {3}}, {{4}, {5}, {6}}};
  m.compiled.id.value = 9;
  m.compiled.data.bytes = {1, 2, 3, 4, 5};
  m.compiled.hash.value = 0xFEDCBA9876543210ull;
  m.compiled.key = 77;
  sws::Visual with_mesh;
  with_mesh.id.value = 0xAB;
  with_mesh.instance = sws::Instance{{0xAC}, m};
  with_mesh.unnamed.bytes.fill(0x44);
  out.push_back(with_mesh);

  sws::LODSelectorInstance lod;
  lod.instances.push_back(edge_matrix(2));
  lod.selector.value = 0xFFFFFFFF;
  lod.slots[1] = sws::SlotObject{{0x33}, m};
  sws::Visual with_lod;
  with_lod.id.value = 0xAD;
  with_lod.instance = sws::Instance{{0xAE}, lod};
  out.push_back(with_lod);

  sws::Visual empty;
  empty.id.value = 0xAF;
  out.push_back(empty);
  return out;
}

// Objects between filler (some behind a 00 byte, as an inline pointer has them).
std::vector<u8> embed(const std::vector<Object>& objects) {
  std::vector<u8> bytes = {'F', 'I', 'L', 'L'};
  for (std::size_t i = 0; i < objects.size(); ++i) {
    if (i % 2) bytes.push_back(0x00);
    encode_object(objects[i], bytes);
    bytes.insert(bytes.end(), {0xDE, 0xAD, 0xBE, 0xEF});
  }
  return bytes;
}

void expect_carves_back(const std::vector<Object>& objects, Game game) {
  std::vector<u8> bytes = embed(objects);
  Level level = carve_level(bytes, game);
  std::vector<Object> carved = parse_objects(level);
  ASSERT_EQ(carved.size(), objects.size());
  for (std::size_t i = 0; i < objects.size(); ++i) EXPECT_TRUE(same_object(carved[i], objects[i])) << i;
  test::ExpectRoundTrip(bytes, game);
}

TEST(Variants, EveryAc2StructureRoundTrips) {
  std::vector<Object> objects;
  for (auto& v : ac2_variants()) objects.push_back(v);
  expect_carves_back(objects, Game::ac2);
}

TEST(Variants, EachAc2VariantAloneRoundTrips) {
  for (auto& v : ac2_variants()) expect_carves_back({v}, Game::ac2);
}

TEST(Variants, EverySwsStructureRoundTrips) { expect_carves_back(sws_variants(), Game::sws); }

TEST(Variants, EdgeFloatsKeepTheirBits) {
  std::vector<Object> objects = {visual(5, ac2::Instance{{1}, mesh(1, 0, 0)}, 0)};
  std::vector<u8> bytes = embed(objects);
  Object back = parse_objects(carve_level(bytes, Game::ac2))[0];
  const auto& m = std::get<ac2::MeshInstanceData>(std::get<ac2::Visual>(back).instance->body).instances[0];
  for (std::size_t i = 0; i < 16; ++i) EXPECT_EQ(std::bit_cast<u32>(m[i]), kEdgeBits[i % std::size(kEdgeBits)]) << i;
}

}  // namespace
}  // namespace anvil
