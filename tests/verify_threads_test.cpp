// One file's `verify` on several threads (pipeline/ordered_batches.hpp): the report is the one thread's,
// and the batches are taken in order, stop at the first refusal and stay few.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <thread>

#include "gen/generator.hpp"
#include "pipeline/ordered_batches.hpp"
#include "pipeline/verify.hpp"
#include "reader/carver.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

struct Numbered {
  std::size_t id = 0;
  std::size_t squared = 0;
};

// Work of uneven length, so that later batches often finish before earlier ones.
void uneven_work(Numbered& batch) {
  if (batch.id % 7 == 3) std::this_thread::sleep_for(std::chrono::microseconds(200));
  batch.squared = batch.id * batch.id;
}

TEST(OrderedBatches, TakesEveryBatchInOrderOnceWorked) {
  for (unsigned threads : {0u, 1u, 2u, 3u, 8u}) {
    std::size_t made = 0;
    std::vector<std::size_t> taken;
    std::atomic<std::size_t> bad_worker{0};
    run_ordered_batches<Numbered>(
        threads,
        [&](Numbered& b) {
          if (made == 500) return false;
          b.id = made++;
          b.squared = 0;
          return true;
        },
        [&](Numbered& b, unsigned worker) {
          if (worker >= std::max(1u, threads)) ++bad_worker;
          uneven_work(b);
        },
        [&](Numbered& b) {
          EXPECT_EQ(b.squared, b.id * b.id) << "taken before it was worked";
          taken.push_back(b.id);
          return true;
        });
    ASSERT_EQ(taken.size(), 500u) << threads << " threads";
    for (std::size_t i = 0; i < taken.size(); ++i) ASSERT_EQ(taken[i], i) << threads << " threads";
    EXPECT_EQ(bad_worker, 0u);
  }
}

TEST(OrderedBatches, StopsAtTheFirstRefusalWithFewBatchesAlive) {
  for (unsigned threads : {1u, 2u, 4u}) {
    const std::size_t slots = 2 * std::size_t{threads} + 1;
    std::size_t made = 0, taken = 0, most_alive = 0;
    run_ordered_batches<Numbered>(
        threads,
        [&](Numbered& b) {
          b.id = made++;
          most_alive = std::max(most_alive, made - taken);
          return true;  // endless: only the refusal ends it
        },
        [&](Numbered& b, unsigned) { uneven_work(b); },
        [&](Numbered& b) {
          EXPECT_EQ(b.id, taken);
          ++taken;
          return b.id != 37;
        });
    EXPECT_EQ(taken, 38u) << threads << " threads";
    EXPECT_LE(made, 38 + slots) << threads << " threads";
    EXPECT_LE(most_alive, threads <= 1 ? 1 : slots) << threads << " threads";
  }
}

void expect_same_report(const VerifyReport& one, const VerifyReport& many, const std::string& what) {
  EXPECT_EQ(many.size, one.size) << what;
  EXPECT_EQ(many.objects, one.objects) << what;
  EXPECT_EQ(many.opaque_bytes, one.opaque_bytes) << what;
  EXPECT_EQ(many.near_misses, one.near_misses) << what;
  EXPECT_EQ(many.first_difference, one.first_difference) << what;
  EXPECT_EQ(many.difference, one.difference) << what;
}

TEST(VerifyThreads, GiveTheOneThreadReport) {
  std::vector<std::pair<std::string, Game>> files;
  for (const auto& f : test::corpus_files("ac2")) files.emplace_back(f, Game::ac2);
  for (const auto& f : test::corpus_files("sws")) files.emplace_back(f, Game::sws);
  for (const auto& [path, game] : files) {
    auto bytes = test::read_file(path);
    VerifyReport one = verify_bytes(bytes, game, true);
    for (unsigned threads : {2u, 3u}) expect_same_report(one, verify_bytes(bytes, game, true, {}, threads), path);
  }
  // Many batches, with near misses and opaque spans between the objects.
  for (Game game : {Game::ac2, Game::sws}) {
    gen::Options o;
    o.game = game;
    o.visuals = 3000;
    o.seed = 9;
    o.near_misses = 40;
    auto bytes = gen::generate_bytes(o);
    VerifyReport one = verify_bytes(bytes, game, true);
    ASSERT_TRUE(one.identical()) << one.difference;
    // The counts, from the carver alone.
    Carver carver(bytes, game);
    std::size_t near_misses = 0, objects = 0, carved = 0;
    carver.on_near_miss([&](const NearMiss&) { ++near_misses; });
    Object object;
    while (auto extent = carver.next(object)) {
      ++objects;
      carved += extent->length;
    }
    ASSERT_GT(near_misses, 0u);
    EXPECT_EQ(one.near_misses, near_misses);
    EXPECT_EQ(one.objects, objects);
    EXPECT_EQ(one.opaque_bytes, bytes.size() - carved);
    ASSERT_GE(one.objects, 3000u);
    for (unsigned threads : {2u, 4u})
      expect_same_report(one, verify_bytes(bytes, game, true, {}, threads), std::string(game_name(game)));
  }
}

}  // namespace
}  // namespace anvil
