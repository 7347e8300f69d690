// `anvilrt stats` (stats/census.hpp, stats/report.hpp): every census number equals the count the test
// computes itself from the generator's record of what it wrote; planted near misses are counted by the
// check they fail; the command line's text and JSON carry the same numbers; files merge in order.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cstring>
#include <filesystem>

#include "gen/generator.hpp"
#include "stats/census.hpp"
#include "stats/report.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

using stats::Names;
using stats::Values;

gen::Options options(Game game, u64 visuals, u64 seed) {
  gen::Options o;
  o.game = game;
  o.visuals = visuals;
  o.seed = seed;
  o.keep_objects = true;
  return o;
}

u64 get(const Values& v, u64 key) {
  auto it = v.find(key);
  return it == v.end() ? 0 : it->second;
}

// The counts the test computes from the record's objects, with its own code.
struct Expected {
  Names instance_classes;
  u64 meshes = 0, direct = 0, fake = 0, near_fake = 0, fake_index = 0, hash_nonzero = 0, materials = 0;
  Values vertex_format, platform, modes, material_counts;
  Names slot_patterns;
  u64 impostors = 0, lights = 0, unknown_bytes = 0;
  u64 tails = 0;
  Values bools, display_order, layout, ones, u32_zero;
  u64 unaccounted_zero = 0;
};

void expect_mesh(Expected& e, const ac2::MeshInstanceData& m, bool direct) {
  ++e.meshes;
  e.direct += direct;
  e.fake += m.is_fake == 1;
  e.near_fake += m.is_near_fake == 1;
  e.fake_index += m.fake_mesh_index != 0;
  e.hash_nonzero += m.compiled.mesh_hash.value != 0;
  ++e.vertex_format[m.compiled.vertex_format];
  ++e.platform[m.compiled.platform_version];
  ++e.material_counts[m.materials.size()];
  for (const auto& info : m.materials) ++e.modes[info.mode];
}

Expected expected_ac2(const gen::Record& r) {
  Expected e;
  for (const Object& o : r.objects) {
    const auto& v = std::get<ac2::Visual>(o);
    if (!v.instance) {
      ++e.instance_classes["none"];
    } else if (const auto* lod = std::get_if<ac2::LODSelectorInstance>(&v.instance->body)) {
      ++e.instance_classes["LODSelectorInstance"];
      std::string pattern;
      for (const auto& slot : lod->slots) {
        if (!slot) {
          pattern += '.';
        } else if (const auto* m = std::get_if<ac2::MeshInstanceData>(&slot->body)) {
          pattern += 'M';
          expect_mesh(e, *m, false);
        } else {
          pattern += 'I';
          ++e.impostors;
        }
      }
      ++e.slot_patterns[pattern];
    } else if (const auto* m = std::get_if<ac2::MeshInstanceData>(&v.instance->body)) {
      ++e.instance_classes["MeshInstanceData"];
      expect_mesh(e, *m, true);
    } else if (std::holds_alternative<ac2::LightInstance>(v.instance->body)) {
      ++e.instance_classes["LightInstance"];
      ++e.lights;
    } else {
      const auto& u = std::get<ac2::UnknownInstance>(v.instance->body);
      EXPECT_EQ(u.class_id, class_id::kSplashFXInstanceData);
      ++e.instance_classes["SplashFXInstanceData"];
      e.unknown_bytes += u.body.bytes.size();
    }
    if (!v.tail) continue;
    const auto& t = *v.tail;
    ++e.tails;
    ++e.bools[(u64{t.can_be_occluder} << 24) | (u64{t.has_unshare_context} << 16) | (u64{t.optimized_packed_lod} << 8) |
              t.copy_instance_data_on_duplicate];
    ++e.display_order[t.display_order];
    ++e.layout[t.data_layout];
    e.ones[t.data_layout] += t.data_f32[0] == 1 && t.data_f32[1] == 1 && t.data_f32[2] == 1 && t.data_f32[3] == 1;
    e.u32_zero[t.data_layout] += t.data_u32[0] == 0 && t.data_u32[1] == 0 && t.data_u32[2] == 0 && t.data_u32[3] == 0;
    bool zero = true;
    for (u8 b : t.unaccounted.bytes) zero = zero && b == 0;
    e.unaccounted_zero += zero;
  }
  return e;
}

TEST(StatsCensus, Ac2NumbersEqualTheGeneratorsRecord) {
  gen::Record r;
  auto bytes = gen::generate_bytes(options(Game::ac2, 8000, 7), &r);
  stats::Census census;
  census.add_file(bytes, Game::ac2);
  ASSERT_EQ(census.dialects.count(Game::ac2), 1u);
  const stats::Dialect& d = census.dialects.at(Game::ac2);
  const stats::Ac2& t = d.ac2;
  Expected e = expected_ac2(r);

  EXPECT_EQ(d.files, 1u);
  EXPECT_EQ(d.bytes, bytes.size());
  EXPECT_EQ(d.carved_bytes, r.carved_bytes);
  EXPECT_EQ(d.objects, (Names{{"Visual", 8000}}));
  EXPECT_TRUE(d.near_misses.empty());
  EXPECT_EQ(t.instance_classes, r.instance_classes);
  EXPECT_EQ(t.instance_classes, e.instance_classes);
  EXPECT_EQ(t.slot_patterns, e.slot_patterns);
  EXPECT_EQ(t.lod_selector_instances, r.instance_classes.at("LODSelectorInstance"));
  EXPECT_EQ(t.impostors, e.impostors);
  EXPECT_EQ(t.lights, e.lights);
  EXPECT_EQ(t.unknown_body_bytes, e.unknown_bytes);

  const stats::Ac2Meshes& m = t.meshes;
  EXPECT_EQ(m.count, e.meshes);
  EXPECT_EQ(m.direct, e.direct);
  EXPECT_EQ(get(m.is_fake, 1), e.fake);
  EXPECT_EQ(get(m.is_near_fake, 1), e.near_fake);
  EXPECT_EQ(m.fake_mesh_index_nonzero, e.fake_index);
  EXPECT_EQ(m.mesh_hash_nonzero, e.hash_nonzero);
  EXPECT_EQ(m.vertex_format, e.vertex_format);
  EXPECT_EQ(m.platform_version, e.platform);
  EXPECT_EQ(m.streams, (Values{{0, e.meshes}}));
  EXPECT_EQ(m.modes, e.modes);
  EXPECT_EQ(m.materials, e.material_counts);

  EXPECT_EQ(t.tails, e.tails);
  EXPECT_EQ(t.bools, e.bools);
  EXPECT_EQ(t.display_order, e.display_order);
  EXPECT_EQ(t.data_layout, e.layout);
  for (const auto& [layout, n] : e.ones) EXPECT_EQ(get(t.f32_ones, layout), n) << layout;
  for (const auto& [layout, n] : e.u32_zero) EXPECT_EQ(get(t.u32_zero, layout), n) << layout;
  EXPECT_EQ(get(t.unaccounted, 0), e.unaccounted_zero);
}

TEST(StatsCensus, SwsNumbersEqualTheGeneratorsRecord) {
  gen::Options o = options(Game::sws, 3000, 8);
  o.selectors = 300;
  gen::Record r;
  auto bytes = gen::generate_bytes(o, &r);
  stats::Census census;
  census.add_file(bytes, Game::sws);
  const stats::Dialect& d = census.dialects.at(Game::sws);
  const stats::Sws& t = d.sws;

  Values used, category, generated, flags, trailing, submeshes;
  Names patterns, instance_classes;
  u64 checked = 0, monotonic = 0, meshes = 0, direct = 0, lods = 0;
  auto mesh = [&](const sws::MeshInstanceData& m, bool is_direct) {
    ++meshes;
    direct += is_direct;
    ++submeshes[m.submeshes.size()];
  };
  for (const Object& obj : r.objects) {
    if (const auto* s = std::get_if<sws::LODSelector>(&obj)) {
      std::vector<f32> distances;
      std::string pattern;
      for (const auto& slot : s->slots) {
        pattern += slot.object.value != 0 ? 'U' : '.';
        if (slot.object.value == 0) continue;
        distances.push_back(slot.switch_distance);
        ++flags[slot.flag];
      }
      ++used[distances.size()];
      ++patterns[pattern];
      ++category[s->category];
      ++generated[s->generated];
      ++trailing[s->trailing];
      if (distances.size() >= 2) {
        ++checked;
        monotonic += std::is_sorted(distances.begin(), distances.end());
      }
      continue;
    }
    const auto& v = std::get<sws::Visual>(obj);
    if (!v.instance) {
      ++instance_classes["none"];
    } else if (const auto* m = std::get_if<sws::MeshInstanceData>(&v.instance->body)) {
      ++instance_classes["MeshInstanceData"];
      mesh(*m, true);
    } else {
      ++instance_classes["LODSelectorInstance"];
      ++lods;
      for (const auto& slot : std::get<sws::LODSelectorInstance>(v.instance->body).slots)
        if (slot) mesh(std::get<sws::MeshInstanceData>(slot->body), false);
    }
  }
  EXPECT_EQ(d.objects, (Names{{"LODSelector", 300}, {"Visual", 3000}}));
  EXPECT_EQ(d.carved_bytes, r.carved_bytes);
  EXPECT_TRUE(d.near_misses.empty());
  EXPECT_EQ(t.selectors, 300u);
  EXPECT_EQ(t.used_slots, used);
  EXPECT_EQ(t.used_patterns, patterns);
  EXPECT_EQ(t.distance_checked, checked);
  EXPECT_EQ(t.monotonic, monotonic);
  EXPECT_LT(monotonic, checked);  // non-monotonic distances occur
  EXPECT_EQ(t.category, category);
  EXPECT_EQ(t.generated, generated);
  EXPECT_EQ(t.flags, flags);
  EXPECT_EQ(t.trailing, trailing);
  EXPECT_EQ(t.instance_classes, instance_classes);
  EXPECT_EQ(t.instance_classes, r.instance_classes);
  EXPECT_EQ(t.lod_selector_instances, lods);
  EXPECT_EQ(t.meshes, meshes);
  EXPECT_EQ(t.direct_meshes, direct);
  EXPECT_EQ(t.submeshes, submeshes);
}

void expect_planted(Game game, u64 visuals, u64 planted, u64 seed) {
  gen::Options o = options(game, visuals, seed);
  o.near_misses = planted;
  gen::Record r;
  auto bytes = gen::generate_bytes(o, &r);
  ASSERT_EQ(r.near_misses.size(), planted);
  stats::Census census;
  census.add_file(bytes, game, 0);
  const stats::Dialect& d = census.dialects.at(game);
  EXPECT_EQ(d.objects.at("Visual"), visuals);  // the planted candidates carve into nothing
  EXPECT_EQ(d.carved_bytes, r.carved_bytes);

  std::map<std::string, std::vector<std::size_t>> want;
  for (const auto& p : r.near_misses) want["Visual: " + p.failure].push_back(p.offset);
  EXPECT_EQ(want.size(), gen::planted_kinds(game).size());
  std::string found;
  for (const auto& [kind, m] : d.near_misses) found += kind + "\n";
  ASSERT_EQ(d.near_misses.size(), want.size()) << found;
  for (const auto& [kind, offsets] : want) {
    auto it = d.near_misses.find(kind);
    ASSERT_NE(it, d.near_misses.end()) << kind << "\nfound:\n" << found;
    EXPECT_EQ(it->second.count, offsets.size()) << kind;
    ASSERT_EQ(it->second.first.size(), std::min(offsets.size(), stats::NearMisses::kExamples));
    for (std::size_t i = 0; i < it->second.first.size(); ++i) EXPECT_EQ(it->second.first[i].offset, offsets[i]);
  }
}

TEST(StatsNearMisses, PlantedCandidatesAreCountedByTheCheckTheyFail) {
  expect_planted(Game::ac2, 2000, 37, 3);
  expect_planted(Game::sws, 2000, 23, 3);
}

TEST(StatsNearMisses, FoundValueIsKeptWithTheExample) {
  gen::Options o = options(Game::ac2, 100, 5);
  o.near_misses = 5;  // one of each ac2 kind
  stats::Census census;
  census.add_file(gen::generate_bytes(o), Game::ac2);
  const auto& misses = census.dialects.at(Game::ac2).near_misses;
  auto streams = misses.find("Visual: instance/compiled: streams count must be 0x00000000");
  ASSERT_NE(streams, misses.end());
  EXPECT_EQ(streams->second.first.at(0).found, "0x00000003");
  auto slot = misses.find("Visual: instance/slots: slot class must be known");
  ASSERT_NE(slot, misses.end());
  EXPECT_EQ(slot->second.first.at(0).found, "0x12345678");
}

TEST(StatsCensus, MergeAddsInFileOrder) {
  gen::Options o = options(Game::ac2, 500, 1);
  o.near_misses = 4;
  auto a = gen::generate_bytes(o);
  o.seed = 2;
  o.near_misses = 5;
  auto b = gen::generate_bytes(o);
  stats::Census ca, cb, both;
  ca.add_file(a, Game::ac2, 0);
  cb.add_file(b, Game::ac2, 1);
  both.merge(ca);
  both.merge(cb);
  const auto& d = both.dialects.at(Game::ac2);
  EXPECT_EQ(d.files, 2u);
  EXPECT_EQ(d.bytes, a.size() + b.size());
  EXPECT_EQ(d.objects.at("Visual"), 1000u);
  EXPECT_EQ(d.ac2.meshes.count,
            ca.dialects.at(Game::ac2).ac2.meshes.count + cb.dialects.at(Game::ac2).ac2.meshes.count);
  u64 total = 0;
  for (const auto& [kind, m] : d.near_misses) {
    total += m.count;
    for (std::size_t i = 1; i < m.first.size(); ++i) EXPECT_LE(m.first[i - 1].file, m.first[i].file);
  }
  EXPECT_EQ(total, 9u);
  // The instance-tag kind was planted first in both files: examples from file 0, then file 1.
  const auto& tag = d.near_misses.at("Visual: instance: pointer tag must be 00 or 03");
  ASSERT_EQ(tag.first.size(), 2u);
  EXPECT_EQ(tag.first[0].file, 0u);
  EXPECT_EQ(tag.first[1].file, 1u);
}

TEST(StatsReport, TextReadsLikeTheNotes) {
  EXPECT_EQ(stats::grouped(0), "0");
  EXPECT_EQ(stats::grouped(999), "999");
  EXPECT_EQ(stats::grouped(2195), "2,195");
  EXPECT_EQ(stats::grouped(630686), "630,686");
  EXPECT_EQ(stats::grouped(1000000), "1,000,000");
  gen::Record r;
  auto bytes = gen::generate_bytes(options(Game::ac2, 3000, 4), &r);
  stats::Census census;
  census.add_file(bytes, Game::ac2);
  std::vector<std::string> files = {"x.bin"};
  std::string text = stats::text_report(census, files);
  Expected e = expected_ac2(r);
  EXPECT_NE(text.find("IsFake 1 on " + stats::grouped(e.fake) + " of " + stats::grouped(e.meshes) + "\n"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("PlatformVersion: 31 " + stats::grouped(e.meshes) + "\n"), std::string::npos);
  EXPECT_NE(text.find("objects by class: Visual 3,000\n"), std::string::npos);
  EXPECT_NE(text.find("near misses: none\n"), std::string::npos);
}

// Reads `stats --json` output and checks it against the record.
void expect_json_matches(const std::string& json, const gen::Record& r, u64 bytes, u64 files) {
  rapidjson::Document doc;
  doc.Parse(json.c_str(), json.size());
  ASSERT_FALSE(doc.HasParseError()) << json.substr(0, 200);
  EXPECT_STREQ(doc["format"].GetString(), "anvilrt-stats/1");
  EXPECT_EQ(doc["files"].GetUint64(), files);
  const auto& d = doc["dialects"]["ac2"];
  EXPECT_EQ(d["bytes"].GetUint64(), bytes);
  EXPECT_EQ(d["carved_bytes"].GetUint64() + d["opaque_bytes"].GetUint64(), bytes);
  EXPECT_EQ(d["objects"]["Visual"].GetUint64(), r.visuals * files);
  for (const auto& [name, n] : r.instance_classes)
    EXPECT_EQ(d["visual"]["instance_classes"][name.c_str()].GetUint64(), n * files) << name;
  Expected e = expected_ac2(r);
  EXPECT_EQ(d["mesh_instance_data"]["is_fake_1"]["count"].GetUint64(), e.fake * files);
  EXPECT_EQ(d["mesh_instance_data"]["is_fake_1"]["of"].GetUint64(), e.meshes * files);
  EXPECT_EQ(d["tail"]["bools"]["01000000"].GetUint64(), e.bools[0x01000000] * files);
  u64 planted = 0;
  for (const auto& m : d["near_misses"].GetObject()) planted += m.value["count"].GetUint64();
  EXPECT_EQ(planted, r.near_misses.size() * files);
}

TEST(StatsCli, JsonOverAFolderWalkedRecursivelyInParallel) {
  test::TempDir dir;
  std::filesystem::create_directories(dir.path("a/b"));
  gen::Options o = options(Game::ac2, 700, 12);
  o.near_misses = 6;
  gen::Record r;
  auto bytes = gen::generate_bytes(o, &r);
  std::vector<std::string> paths = {dir.path("a/1.bin"), dir.path("a/b/2.bin"), dir.path("a/b/3.bin"),
                                    dir.path("a/4.bin")};
  for (const auto& p : paths) test::write_file(p, bytes);
  auto res = test::run_cli({"stats", "--game", "ac2", "--json", dir.path("a")});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  expect_json_matches(res.out, r, 4 * bytes.size(), 4);

  // The same as one census merged in sorted file order, in process.
  std::vector<std::string> sorted = paths;
  std::sort(sorted.begin(), sorted.end());
  stats::Census census;
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    stats::Census one;
    one.add_file(bytes, Game::ac2, i);
    census.merge(one);
  }
  EXPECT_EQ(res.out, stats::json_report(census, sorted));

  auto text = test::run_cli({"stats", "--game", "ac2", dir.path("a")});
  ASSERT_EQ(text.exit_code, 0);
  EXPECT_EQ(text.out, stats::text_report(census, sorted));
  EXPECT_TRUE(text.err.empty()) << text.err;  // no progress line: stderr is not a terminal
}

TEST(StatsCli, AutoPicksTheDialectPerFileAndBadPathsExit2) {
  test::TempDir dir;
  gen::Options o = options(Game::sws, 400, 3);
  o.keep_objects = false;
  test::write_file(dir.path("s.bin"), gen::generate_bytes(o));
  o.game = Game::ac2;
  test::write_file(dir.path("a.bin"), gen::generate_bytes(o));
  auto res = test::run_cli({"stats", "--json", dir.path("s.bin"), dir.path("a.bin")});
  ASSERT_EQ(res.exit_code, 0) << res.err;
  rapidjson::Document doc;
  doc.Parse(res.out.c_str());
  ASSERT_FALSE(doc.HasParseError());
  EXPECT_EQ(doc["dialects"]["ac2"]["files"].GetUint64(), 1u);
  EXPECT_EQ(doc["dialects"]["sws"]["files"].GetUint64(), 1u);
  EXPECT_EQ(doc["dialects"]["sws"]["objects"]["Visual"].GetUint64(), 400u);
  EXPECT_EQ(test::run_cli({"stats", dir.path("missing.bin")}).exit_code, 2);
  EXPECT_EQ(test::run_cli({"stats", "--game", "xyz", dir.path("a.bin")}).exit_code, 2);
}

}  // namespace
}  // namespace anvil
