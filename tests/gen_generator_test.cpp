// `anvilrt gen` (gen/generator.hpp): determinism (a pinned SHA-256), exact carves, signature-free
// filler, round trips, the notes' proportions and the command line.
#include <absl/container/flat_hash_map.h>
#include <gtest/gtest.h>

#include <cstring>

#include "gen/generator.hpp"
#include "gen/random.hpp"
#include "reader/level.hpp"
#include "tests/sha256.hpp"
#include "tests/test_support.hpp"
#include "writer/encode.hpp"

namespace anvil {
namespace {

using test::sha256_hex;

gen::Options options(Game game, u64 visuals, u64 seed, bool keep = true) {
  gen::Options o;
  o.game = game;
  o.visuals = visuals;
  o.seed = seed;
  o.keep_objects = keep;
  return o;
}

// The places of a signature in the file.
std::vector<std::size_t> find_all(std::span<const u8> bytes, u32 signature) {
  std::vector<std::size_t> hits;
  for (std::size_t i = 0; i + 4 <= bytes.size(); ++i) {
    u32 w;
    std::memcpy(&w, bytes.data() + i, 4);
    if (w == signature) hits.push_back(i);
  }
  return hits;
}

TEST(GenRandom, UniformStaysInRangeAndPickFollowsWeights) {
  gen::Rng rng(7);
  std::array<u64, 3> seen{};
  for (int i = 0; i < 30000; ++i) {
    u64 v = rng.uniform(3);
    ASSERT_LT(v, 3u);
    ++seen[v];
  }
  for (u64 n : seen) EXPECT_NEAR(static_cast<double>(n), 10000.0, 400.0);
  std::array<u64, 3> picked{};
  for (int i = 0; i < 30000; ++i) ++picked[rng.pick({1, 0, 9})];
  EXPECT_EQ(picked[1], 0u);
  EXPECT_NEAR(static_cast<double>(picked[0]), 3000.0, 300.0);
  // splitmix64's published first output for state 0; xoshiro256** is a pure function of its seed.
  u64 state = 0;
  EXPECT_EQ(gen::splitmix64(state), 0xE220A8397B1DCDAFULL);
  gen::Rng a(0), b(0);
  for (int i = 0; i < 100; ++i) ASSERT_EQ(a.next(), b.next());
  EXPECT_NE(gen::Rng(1).next(), gen::Rng(2).next());
}

TEST(GenDeterminism, PinnedSha256) {
  // Pinned: any change to the bytes the generator writes for these options must be deliberate.
  auto ac2 = gen::generate_bytes(options(Game::ac2, 200, 42, false));
  EXPECT_EQ(sha256_hex(ac2), "d12cbc362e61c2fb4771518e19658a72ea99f8a1b7c9f050f1d9972e56fbe168");
  gen::Options sws = options(Game::sws, 200, 42, false);
  sws.selectors = 20;
  EXPECT_EQ(sha256_hex(gen::generate_bytes(sws)), "f902c347c2907eb71aa86a5abaadec8623bddbf639f50cf1b1d52123109f5346");
}

TEST(GenDeterminism, SameSeedSameBytesOtherSeedOtherBytes) {
  for (Game game : {Game::ac2, Game::sws}) {
    auto a = gen::generate_bytes(options(game, 300, 5, false));
    auto b = gen::generate_bytes(options(game, 300, 5, true));
    auto c = gen::generate_bytes(options(game, 300, 6, false));
    EXPECT_EQ(a, b);
    EXPECT_NE(a, c);
  }
}

TEST(GenDeterminism, StreamedFileEqualsBytesInMemory) {
  test::TempDir dir;
  // Large enough to be streamed in several chunks.
  gen::Options o = options(Game::ac2, 20000, 3, false);
  auto record = gen::generate_file(o, dir.path("level.bin"));
  ASSERT_TRUE(record.ok()) << record.status();
  auto bytes = test::read_file(dir.path("level.bin"));
  EXPECT_GT(bytes.size(), std::size_t{1} << 23);
  EXPECT_EQ(record->size, bytes.size());
  EXPECT_EQ(bytes, gen::generate_bytes(o));
}

void expect_exact_carve(const gen::Options& o) {
  gen::Record record;
  auto bytes = gen::generate_bytes(o, &record);
  std::vector<std::string> misses;
  Level level = carve_level(bytes, o.game, {}, [&](const NearMiss& m) { misses.push_back(m.failure.message()); });
  EXPECT_TRUE(misses.empty()) << misses.front();
  ASSERT_EQ(record.objects.size(), record.placed.size());
  std::vector<Object> objects = parse_objects(level);
  ASSERT_EQ(objects.size(), record.objects.size());
  std::size_t visuals = 0, selectors = 0, i = 0, behind_zero = 0;
  for (const Piece& piece : level.pieces) {
    if (!piece.is_object()) continue;
    EXPECT_EQ(piece.offset, record.placed[i].offset) << i;
    EXPECT_EQ(piece.length, record.placed[i].length) << i;
    EXPECT_TRUE(same_object(objects[i], record.objects[i])) << i;
    ASSERT_GT(piece.offset, 0u);
    behind_zero += bytes[piece.offset - 1] == 0x00;
    (std::holds_alternative<sws::LODSelector>(objects[i]) ? selectors : visuals)++;
    ++i;
  }
  EXPECT_EQ(visuals, o.visuals);
  EXPECT_EQ(record.visuals, o.visuals);
  EXPECT_EQ(selectors, record.selectors);
  EXPECT_EQ(behind_zero, record.behind_zero);
  if (o.visuals >= 100) {
    EXPECT_GT(record.behind_zero, 0u);
  }
  EXPECT_EQ(record.size, bytes.size());
  EXPECT_EQ(bytes.size() - level.opaque_bytes(), record.carved_bytes);

  // Every signature lies inside an object: none in filler, none across an object's edge.
  std::vector<std::pair<std::size_t, std::size_t>> extents;
  for (const Piece& p : level.pieces)
    if (p.is_object()) extents.emplace_back(p.offset, p.offset + p.length);
  for (u32 sig : {class_id::kVisual, class_id::kLODSelector, class_id::kVisualShaderConstants}) {
    for (std::size_t hit : find_all(bytes, sig)) {
      auto it = std::upper_bound(extents.begin(), extents.end(), std::make_pair(hit, ~std::size_t{0}));
      ASSERT_NE(it, extents.begin()) << "signature in filler at " << hit;
      --it;
      EXPECT_TRUE(hit >= it->first && hit + 4 <= it->second) << "signature outside objects at " << hit;
    }
  }
}

TEST(GenCarve, Ac2CarvesIntoExactlyTheGeneratedVisuals) {
  for (u64 seed : {1, 2, 3}) expect_exact_carve(options(Game::ac2, 3000, seed));
}

TEST(GenCarve, SwsCarvesIntoExactlyTheGeneratedVisualsAndSelectors) {
  for (u64 seed : {1, 2}) {
    gen::Options o = options(Game::sws, 2000, seed);
    o.selectors = 150;
    expect_exact_carve(o);
  }
  expect_exact_carve(options(Game::sws, 4000, 9));  // default selectors: 4000 * 221 / 3966 = 222
  gen::Record r;
  gen::generate_bytes(options(Game::sws, 4000, 9), &r);
  EXPECT_EQ(r.selectors, 4000u * 221 / 3966);
}

TEST(GenCarve, EdgeCounts) {
  expect_exact_carve(options(Game::ac2, 1, 11));
  gen::Options only_selectors = options(Game::sws, 0, 4);
  only_selectors.selectors = 3;
  gen::Record r;
  auto bytes = gen::generate_bytes(only_selectors, &r);
  EXPECT_EQ(carve_level(bytes, Game::sws).object_count(), 3u);
  auto empty = gen::generate_bytes(options(Game::ac2, 0, 4));
  EXPECT_FALSE(empty.empty());
  EXPECT_EQ(carve_level(empty, Game::ac2).object_count(), 0u);
}

TEST(GenCarve, RoundTrips) {
  test::ExpectRoundTrip(gen::generate_bytes(options(Game::ac2, 300, 21, false)), Game::ac2);
  gen::Options o = options(Game::sws, 300, 21, false);
  o.near_misses = 10;
  test::ExpectRoundTrip(gen::generate_bytes(o), Game::sws);
  o.game = Game::ac2;
  test::ExpectRoundTrip(gen::generate_bytes(o), Game::ac2);
}

TEST(GenDistributions, FollowTheNotesProportions) {
  gen::Record r;
  auto bytes = gen::generate_bytes(options(Game::ac2, 60000, 1), &r);
  u64 n = r.visuals;
  // LODSelectorInstance on 624,564 of 630,686 (99.03 %).
  EXPECT_NEAR(static_cast<double>(r.instance_classes["LODSelectorInstance"]) / n, 0.9903, 0.002);
  for (const char* rare : {"MeshInstanceData", "LightInstance", "SplashFXInstanceData", "none"}) {
    EXPECT_GT(r.instance_classes[rare], 0u) << rare;
    EXPECT_LT(r.instance_classes[rare], n / 100) << rare;
  }
  u64 meshes = 0, fake = 0, vf11 = 0, vf0 = 0, vf2 = 0, platform31 = 0, mode1 = 0, mode4 = 0;
  u64 tails = 0, usual_bools = 0, order0 = 0, layout0 = 0, ones_on_default = 0;
  std::array<u64, 3> slot_kinds{};  // empty, mesh, impostor
  auto mesh = [&](const ac2::MeshInstanceData& m) {
    ++meshes;
    fake += m.is_fake == 1;
    vf11 += m.compiled.vertex_format == 11;
    vf0 += m.compiled.vertex_format == 0;
    vf2 += m.compiled.vertex_format == 2;
    platform31 += m.compiled.platform_version == 31;
    for (const auto& info : m.materials) {
      mode1 += info.mode == 1;
      mode4 += info.mode == 4;
    }
  };
  for (const Object& o : r.objects) {
    const auto& v = std::get<ac2::Visual>(o);
    if (v.instance) {
      if (const auto* lod = std::get_if<ac2::LODSelectorInstance>(&v.instance->body)) {
        for (const auto& slot : lod->slots) {
          if (!slot) {
            ++slot_kinds[0];
          } else if (const auto* m = std::get_if<ac2::MeshInstanceData>(&slot->body)) {
            ++slot_kinds[1];
            mesh(*m);
          } else {
            ++slot_kinds[2];
          }
        }
      } else if (const auto* m = std::get_if<ac2::MeshInstanceData>(&v.instance->body)) {
        mesh(*m);
      }
    }
    if (!v.tail) continue;
    ++tails;
    usual_bools += v.tail->can_be_occluder == 1 && v.tail->has_unshare_context == 0 &&
                   v.tail->optimized_packed_lod == 0 && v.tail->copy_instance_data_on_duplicate == 0;
    order0 += v.tail->display_order == 0;
    if (v.tail->data_layout == 0) {
      ++layout0;
      ones_on_default += v.tail->data_f32 == std::array<f32, 4>{1, 1, 1, 1};
    }
  }
  EXPECT_NEAR(static_cast<double>(fake) / meshes, 2036.0 / 2195, 0.01);  // IsFake 1 on ~93 %
  EXPECT_EQ(vf11, fake);
  EXPECT_NEAR(static_cast<double>(vf0) / (vf0 + vf2), 103.0 / 149, 0.03);  // VertexFormat 0 : 2 = 103 : 46
  EXPECT_EQ(platform31, meshes);
  EXPECT_GT(mode1, mode4);
  EXPECT_GT(mode4, 0u);
  EXPECT_GT(slot_kinds[0], 0u);
  EXPECT_GT(slot_kinds[1], slot_kinds[2]);
  EXPECT_GT(slot_kinds[2], 0u);
  EXPECT_GE(static_cast<double>(usual_bools) / tails, 0.999);  // 01000000 on 630,674 of 630,686
  EXPECT_LT(usual_bools, tails + 1);
  EXPECT_GE(static_cast<double>(order0) / tails, 0.999);
  EXPECT_GT(static_cast<double>(layout0) / tails, 0.9);  // Default commonest
  EXPECT_GT(static_cast<double>(ones_on_default) / layout0, 0.95);
  EXPECT_FALSE(bytes.empty());
}

TEST(GenDistributions, SwsSelectorsHaveUnusedSlotsAndNonMonotonicDistances) {
  gen::Options o = options(Game::sws, 3000, 2);
  o.selectors = 400;
  gen::Record r;
  gen::generate_bytes(o, &r);
  u64 unused = 0, not_monotonic = 0, aligned = 0, lods = 0;
  absl::flat_hash_map<u32, const sws::LODSelector*> by_id;
  for (const Object& obj : r.objects)
    if (const auto* s = std::get_if<sws::LODSelector>(&obj)) by_id[s->id.value] = s;
  for (const Object& obj : r.objects) {
    if (const auto* s = std::get_if<sws::LODSelector>(&obj)) {
      f32 last = -1;
      bool mono = true;
      for (const auto& d : s->slots) {
        if (d.object.value == 0) {
          ++unused;
          continue;
        }
        mono = mono && d.switch_distance >= last;
        last = d.switch_distance;
      }
      not_monotonic += !mono;
    } else if (const auto* v = std::get_if<sws::Visual>(&obj); v->instance) {
      if (const auto* lod = std::get_if<sws::LODSelectorInstance>(&v->instance->body)) {
        ++lods;
        auto it = by_id.find(lod->selector.value);
        ASSERT_NE(it, by_id.end());
        bool same = true;
        for (int i = 0; i < 5; ++i)
          same = same && (lod->slots[i].has_value() == (it->second->slots[i].object.value != 0));
        aligned += same;
      }
    }
  }
  EXPECT_GT(unused, 0u);
  EXPECT_GT(not_monotonic, 0u);
  EXPECT_GT(lods, 0u);
  EXPECT_EQ(aligned, lods);  // the five slots align to the selector's five descriptors
}

TEST(GenOptions, Validation) {
  gen::Options o = options(Game::ac2, 10, 1);
  EXPECT_TRUE(gen::validate(o).ok());
  o.selectors = 3;
  EXPECT_EQ(gen::validate(o).code(), absl::StatusCode::kInvalidArgument);
  o.selectors.reset();
  o.near_misses = 12;  // 11 gaps around 10 objects
  EXPECT_EQ(gen::validate(o).code(), absl::StatusCode::kInvalidArgument);
  EXPECT_THROW(gen::generate_bytes(o), std::invalid_argument);
  o.near_misses = 11;
  EXPECT_TRUE(gen::validate(o).ok());
  gen::Record r;
  gen::generate_bytes(o, &r);
  EXPECT_EQ(r.near_misses.size(), 11u);
}

TEST(GenCli, WritesTheSameBytesAsTheLibrary) {
  test::TempDir dir;
  auto r = test::run_cli(
      {"gen", "--game", "sws", "--visuals", "250", "--selectors", "30", "--seed", "77", "-o", dir.path("a.bin")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  gen::Options o = options(Game::sws, 250, 77, false);
  o.selectors = 30;
  auto want = gen::generate_bytes(o);
  EXPECT_EQ(test::read_file(dir.path("a.bin")), want);
  EXPECT_NE(r.out.find("250 Visuals, 30 LODSelectors"), std::string::npos) << r.out;
}

TEST(GenCli, BadArgumentsExit2AndWriteNothing) {
  test::TempDir dir;
  std::string out = dir.path("x.bin");
  EXPECT_EQ(test::run_cli({"gen", "--game", "xyz", "--visuals", "3", "-o", out}).exit_code, 2);
  EXPECT_EQ(test::run_cli({"gen", "--game", "ac2", "--visuals", "3", "--selectors", "2", "-o", out}).exit_code, 2);
  EXPECT_EQ(test::run_cli({"gen", "--game", "ac2", "-o", out}).exit_code, 2);
  EXPECT_EQ(test::run_cli({"gen", "--game", "ac2", "--visuals", "3", "-o", dir.path("no/such/dir/x.bin")}).exit_code,
            2);
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_TRUE(std::filesystem::is_empty(dir.path("")));
}

}  // namespace
}  // namespace anvil
