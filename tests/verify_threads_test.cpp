// One file carved in parts at once (reader/split_carve.hpp) is the one carve, and one file's `verify` on
// several threads gives the one thread's report.
#include <absl/strings/str_format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <stdexcept>
#include <thread>

#include "gen/generator.hpp"
#include "pipeline/verify.hpp"
#include "reader/carver.hpp"
#include "reader/level.hpp"
#include "reader/split_carve.hpp"
#include "tests/test_support.hpp"
#include "writer/encode.hpp"

namespace anvil {
namespace {

struct CarvedAlone {
  std::vector<Extent> objects;
  std::vector<std::size_t> near_misses;
};

// The reference: one carver from the start, as verify used it before the parts.
CarvedAlone carve_alone(std::span<const u8> bytes, Game game) {
  CarvedAlone out;
  Carver carver(bytes, game);
  carver.on_near_miss([&](const NearMiss& miss) { out.near_misses.push_back(miss.offset); });
  Object object;
  while (auto extent = carver.next(object)) out.objects.push_back(*extent);
  return out;
}

void expect_same_extents(const std::vector<Extent>& want, const std::vector<Extent>& got, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < want.size(); ++i) {
    ASSERT_EQ(got[i].offset, want[i].offset) << what << ", object " << i;
    ASSERT_EQ(got[i].length, want[i].length) << what << ", object " << i;
  }
}

std::vector<std::pair<std::vector<u8>, Game>> split_inputs() {
  std::vector<std::pair<std::vector<u8>, Game>> out;
  for (const auto& f : test::corpus_files("ac2")) out.emplace_back(test::read_file(f), Game::ac2);
  for (const auto& f : test::corpus_files("sws")) out.emplace_back(test::read_file(f), Game::sws);
  // Many objects, with near misses and opaque spans between them.
  for (Game game : {Game::ac2, Game::sws}) {
    gen::Options o;
    o.game = game;
    o.visuals = 3000;
    o.seed = 9;
    o.near_misses = 40;
    out.emplace_back(gen::generate_bytes(o), game);
  }
  return out;
}

const SplitVisit kVisitEvery = [](unsigned, const Extent&, const Object&) { return true; };

// Parts that start anywhere, mostly inside objects: each must hand over where the one carve goes on.
TEST(SplitCarve, IsTheOneCarveWhereverThePartsStart) {
  for (const auto& [bytes, game] : split_inputs()) {
    CarvedAlone one = carve_alone(bytes, game);
    for (unsigned parts : {2u, 3u, 4u, 5u, 7u, 9u, 12u, 16u}) {
      for (std::size_t min_part : {std::size_t{1}, std::size_t{97}, std::size_t{4096}}) {
        const std::string what =
            absl::StrFormat("%s, %d bytes, %d parts of at least %d", game_name(game), bytes.size(), parts, min_part);
        SplitCarve split = split_carve(bytes, game, {.parts = parts, .min_part = min_part}, kVisitEvery);
        expect_same_extents(one.objects, split.objects, what);
        EXPECT_EQ(split.near_misses, one.near_misses) << what;
        EXPECT_FALSE(split.stopped_part) << what;
      }
    }
  }
}

// A part that starts inside an object can find an object the one carve never tries: here a whole Visual
// lies inside the 311 opaque bytes of a LightInstance. The part before it must not hand over there.
TEST(SplitCarve, PassesAFalseStartInsideAnObject) {
  auto bytes = test::read_file(test::corpus("ac2/light_instance.bin"));
  CarvedAlone one = carve_alone(bytes, Game::ac2);
  ASSERT_EQ(one.objects.size(), 2u);
  const Extent outer = one.objects[0], inner_source = one.objects[1];
  const std::size_t inner = outer.offset + outer.length - 311 + 8;  // 8 bytes into the light's body
  ASSERT_LE(inner + inner_source.length, outer.offset + outer.length);
  std::copy_n(bytes.begin() + static_cast<std::ptrdiff_t>(inner_source.offset), inner_source.length,
              bytes.begin() + static_cast<std::ptrdiff_t>(inner));
  CarvedAlone embedded = carve_alone(bytes, Game::ac2);
  expect_same_extents(one.objects, embedded.objects, "the one carve, the Visual embedded");
  Carver from_inside(bytes, Game::ac2);
  from_inside.start_at(outer.offset + 1);
  Object object;
  auto false_start = from_inside.next(object);
  ASSERT_TRUE(false_start);
  ASSERT_EQ(false_start->offset, inner) << "the embedded Visual parses on its own";

  std::size_t starts_before_it = 0;
  for (unsigned parts = 2; parts <= 24; ++parts) {
    for (unsigned k = 1; k < parts; ++k) {
      const std::size_t start = bytes.size() / parts * k;
      starts_before_it += start > outer.offset && start <= inner;
    }
    SplitCarve split = split_carve(bytes, Game::ac2, {.parts = parts, .min_part = 1}, kVisitEvery);
    expect_same_extents(embedded.objects, split.objects, absl::StrFormat("%d parts", parts));
    EXPECT_EQ(split.near_misses, embedded.near_misses) << parts << " parts";
  }
  EXPECT_GT(starts_before_it, 0u) << "no part started where the false start is found";
}

// Where the gap check of a hand-over matters: a false start that straddles the end of the object the
// part before ends with, over a real object. Here a Visual F with MeshInstanceData starts inside a
// LightInstance's opaque body, and its instance_bounds (opaque 40-byte records) run past the light's end
// over a whole real Visual R. A part that starts inside the light finds F, then R's copy after F: the
// part before must not hand over to that copy, or R is lost.
TEST(SplitCarve, PassesAFalseStartOverARealObject) {
  gen::Options o;
  o.visuals = 3000;
  o.seed = 9;
  auto generated = gen::generate_bytes(o);
  Level level = carve_level(generated, Game::ac2);
  std::vector<Object> objects = parse_objects(level);
  auto has_mesh = [](const Object& object) {
    const auto* v = std::get_if<ac2::Visual>(&object);
    return v && v->instance && std::holds_alternative<ac2::MeshInstanceData>(v->instance->body);
  };
  auto mesh = std::find_if(objects.begin(), objects.end(), has_mesh);
  ASSERT_NE(mesh, objects.end());
  Object f_object = *mesh;
  const std::vector<u8> marker(200, 0xA5);
  std::get<ac2::MeshInstanceData>(std::get<ac2::Visual>(f_object).instance->body).instance_bounds.assign(5, {});
  for (auto& b : std::get<ac2::MeshInstanceData>(std::get<ac2::Visual>(f_object).instance->body).instance_bounds)
    b.bytes.fill(0xA5);
  std::vector<u8> f;
  encode_object(f_object, f);
  const auto bounds = std::search(f.begin(), f.end(), marker.begin(), marker.end());
  ASSERT_NE(bounds, f.end());
  const auto prefix = static_cast<std::size_t>(bounds - f.begin()) + 8;  // F's bytes inside the light

  auto light = test::read_file(test::corpus("ac2/light_instance.bin"));
  CarvedAlone alone = carve_alone(light, Game::ac2);
  ASSERT_EQ(alone.objects.size(), 2u);
  const Extent outer = alone.objects[0], real = alone.objects[1];
  const std::size_t outer_end = outer.offset + outer.length;
  ASSERT_LE(prefix, 311u);
  // The light up to its end, F's first bytes as the last of its body; then the rest of F, R 16 bytes in.
  std::vector<u8> bytes(light.begin(), light.begin() + static_cast<std::ptrdiff_t>(outer_end));
  const std::size_t f_start = outer_end - prefix;
  std::copy_n(f.begin(), prefix, bytes.begin() + static_cast<std::ptrdiff_t>(f_start));
  std::vector<u8> rest(f.begin() + static_cast<std::ptrdiff_t>(prefix), f.end());
  std::copy_n(light.begin() + static_cast<std::ptrdiff_t>(real.offset), real.length, rest.begin() + 16);
  bytes.insert(bytes.end(), rest.begin(), rest.end());
  // And R again after F: the object the part inside the light finds after F.
  bytes.insert(bytes.end(), 8, u8{0});
  bytes.insert(bytes.end(), light.begin() + static_cast<std::ptrdiff_t>(real.offset),
               light.begin() + static_cast<std::ptrdiff_t>(real.offset + real.length));

  // Filler in front, so that the second of two parts starts inside the light before F: it is the last
  // part, so it carves on after F to R's copy.
  const std::size_t pad = bytes.size() - outer.offset - f_start;
  bytes.insert(bytes.begin(), pad, u8{0});
  ASSERT_GT(bytes.size() / 2, pad + outer.offset);
  ASSERT_LE(bytes.size() / 2, pad + f_start);

  CarvedAlone one = carve_alone(bytes, Game::ac2);
  ASSERT_EQ(one.objects.size(), 3u);
  ASSERT_EQ(one.objects[1].offset, pad + outer_end + 16) << "R, right after the light";
  Carver from_inside(bytes, Game::ac2);
  from_inside.start_at(pad + outer.offset + 1);
  Object object;
  auto false_start = from_inside.next(object);
  ASSERT_TRUE(false_start);
  ASSERT_EQ(false_start->offset, pad + f_start) << "F parses on its own";
  ASSERT_GT(false_start->offset + false_start->length, pad + outer_end + 16 + real.length) << "F covers R";

  std::size_t starts_before_it = 0;
  for (unsigned parts = 2; parts <= 24; ++parts) {
    for (unsigned k = 1; k < parts; ++k) {
      const std::size_t start = bytes.size() / parts * k;
      starts_before_it += start > pad + outer.offset && start <= pad + f_start;
    }
    SplitCarve split = split_carve(bytes, Game::ac2, {.parts = parts, .min_part = 1}, kVisitEvery);
    expect_same_extents(one.objects, split.objects, absl::StrFormat("%d parts", parts));
    EXPECT_EQ(split.near_misses, one.near_misses) << parts << " parts";
  }
  EXPECT_GT(starts_before_it, 0u) << "no part started where the false start is found";
}

// A near miss that two parts see (the later part starts before it, the earlier one carves past it to
// the object it hands over at) counts once. From ac2/near_misses.bin: its candidate (c) at 0x1d5 and
// the Visual at 0x328, then a Visual of ac2/light_instance.bin; filler in front so that the second of
// two parts starts 4 bytes before (c).
TEST(SplitCarve, CountsANearMissBothPartsSawOnce) {
  auto misses = test::read_file(test::corpus("ac2/near_misses.bin"));
  auto light = test::read_file(test::corpus("ac2/light_instance.bin"));
  std::vector<u8> bytes(misses.begin() + 0x1d5 - 8, misses.begin() + 0x44e);
  bytes.insert(bytes.end(), 8, u8{0});
  bytes.insert(bytes.end(), light.begin() + 0x17e, light.begin() + 0x17e + 152);
  const std::size_t pad = bytes.size() - 8;
  bytes.insert(bytes.begin(), pad, u8{0});
  ASSERT_EQ(bytes.size() / 2, pad + 4);

  CarvedAlone one = carve_alone(bytes, Game::ac2);
  ASSERT_EQ(one.objects.size(), 2u);
  ASSERT_EQ(one.near_misses, std::vector<std::size_t>{pad + 8}) << "(c), before the first Visual";
  SplitCarve split = split_carve(bytes, Game::ac2, {.parts = 2, .min_part = 1}, kVisitEvery);
  expect_same_extents(one.objects, split.objects, "2 parts");
  EXPECT_EQ(split.near_misses, one.near_misses);
}

// A visit that says stop ends the one carve at the first such object in file order, whichever part saw
// it; a part that stops early leaves the parts before it to carve on.
TEST(SplitCarve, StopsAtTheFirstObjectAVisitRefuses) {
  for (const auto& [bytes, game] : split_inputs()) {
    CarvedAlone one = carve_alone(bytes, game);
    if (one.objects.size() < 3) continue;
    for (std::size_t refused : {std::size_t{0}, one.objects.size() / 2, one.objects.size() - 1}) {
      // Every object from `refused` on is refused, as a damaged region would be: the first in file order wins.
      const std::size_t from = one.objects[refused].offset;
      SplitVisit visit = [&](unsigned, const Extent& extent, const Object&) { return extent.offset < from; };
      for (unsigned parts : {1u, 2u, 5u}) {
        const std::string what = absl::StrFormat("%s, %d parts, object %d refused", game_name(game), parts, refused);
        SplitCarve split = split_carve(bytes, game, {.parts = parts, .min_part = 64}, visit);
        std::vector<Extent> want(one.objects.begin(), one.objects.begin() + static_cast<std::ptrdiff_t>(refused) + 1);
        expect_same_extents(want, split.objects, what);
        ASSERT_TRUE(split.stopped_part) << what;
        std::vector<std::size_t> misses;
        for (std::size_t m : one.near_misses)
          if (m <= from) misses.push_back(m);
        EXPECT_EQ(split.near_misses, misses) << what;
      }
    }
  }
}

// What a visit throws (out of memory) reaches the caller once every part has ended, from whichever
// part threw: no part waits for a dead one, nothing is terminated.
TEST(SplitCarve, PassesOnWhatAVisitThrows) {
  for (const auto& [bytes, game] : split_inputs()) {
    if (bytes.size() < 100000) continue;
    for (double from : {0.0, 0.4, 0.9}) {
      const auto first_thrown = static_cast<std::size_t>(from * static_cast<double>(bytes.size()));
      SplitVisit visit = [&](unsigned, const Extent& extent, const Object&) -> bool {
        if (extent.offset >= first_thrown) throw std::runtime_error("thrown");
        return true;
      };
      for (unsigned parts : {1u, 2u, 4u})
        EXPECT_THROW(split_carve(bytes, game, {.parts = parts, .min_part = 1}, visit), std::runtime_error)
            << parts << " parts, thrown from " << from;
    }
  }
}

TEST(SplitCarve, ReportsProgressToTheWholeOnTheCallingThread) {
  gen::Options o;
  o.visuals = 6000;
  auto bytes = gen::generate_bytes(o);
  const auto caller = std::this_thread::get_id();
  std::size_t last = 0, calls = 0;
  bool other_thread = false, falling = false;
  ProgressFn progress = [&](std::size_t done, std::size_t total) {
    other_thread |= std::this_thread::get_id() != caller;
    falling |= done < last;
    EXPECT_EQ(total, bytes.size());
    last = done;
    ++calls;
  };
  split_carve(bytes, Game::ac2, {.parts = 2, .min_part = 1}, kVisitEvery, progress);
  EXPECT_FALSE(other_thread);
  EXPECT_FALSE(falling);
  EXPECT_GT(calls, 1u);
  EXPECT_EQ(last, bytes.size());
}

void expect_same_verify_report(const VerifyReport& one, const VerifyReport& many, const std::string& what) {
  EXPECT_EQ(many.size, one.size) << what;
  EXPECT_EQ(many.objects, one.objects) << what;
  EXPECT_EQ(many.opaque_bytes, one.opaque_bytes) << what;
  EXPECT_EQ(many.near_misses, one.near_misses) << what;
  EXPECT_EQ(many.first_difference, one.first_difference) << what;
  EXPECT_EQ(many.difference, one.difference) << what;
}

TEST(VerifyThreads, GiveTheOneCarversCounts) {
  for (const auto& [bytes, game] : split_inputs()) {
    CarvedAlone one = carve_alone(bytes, game);
    std::size_t carved = 0;
    for (const Extent& e : one.objects) carved += e.length;
    for (bool json : {false, true}) {
      VerifyReport single = verify_bytes(bytes, game, json);
      ASSERT_TRUE(single.identical()) << single.difference;
      EXPECT_EQ(single.objects, one.objects.size());
      EXPECT_EQ(single.near_misses, one.near_misses.size());
      EXPECT_EQ(single.opaque_bytes, bytes.size() - carved);
      for (unsigned threads : {2u, 4u})
        expect_same_verify_report(single, verify_bytes(bytes, game, json, {}, threads),
                                  absl::StrFormat("%s, %d bytes, %d threads", game_name(game), bytes.size(), threads));
    }
  }
}

}  // namespace
}  // namespace anvil
