// The library's progress reports (model/progress.hpp): every long job reports rising figures, about one
// per MiB, and ends at its whole.
#include <gtest/gtest.h>

#include <cstdio>

#include "gen/generator.hpp"
#include "patch/patch.hpp"
#include "pipeline/dump.hpp"
#include "pipeline/patch_output.hpp"
#include "pipeline/verify.hpp"
#include "reader/level.hpp"
#include "stats/census.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

struct Recorder {
  std::vector<std::pair<std::size_t, std::size_t>> calls;
  ProgressFn fn() {
    return [this](std::size_t done, std::size_t total) { calls.emplace_back(done, total); };
  }
  // Rising, at most one call per step (and the last), ending at `whole` of `whole`; with `per_step`, at
  // least one per two steps (patch's write reports per chunk written and per range checked instead).
  void expect_ends_at(std::size_t whole, const char* job, bool per_step = true) const {
    ASSERT_FALSE(calls.empty()) << job;
    EXPECT_EQ(calls.back(), std::make_pair(whole, whole)) << job;
    for (std::size_t i = 1; i < calls.size(); ++i) {
      EXPECT_LE(calls[i - 1].first, calls[i].first) << job;
      EXPECT_LE(calls[i].first, calls[i].second) << job;
    }
    EXPECT_LE(calls.size(), whole / ProgressSteps::kStep + 2) << job;
    if (per_step)
      EXPECT_GE(calls.size(), whole / ProgressSteps::kStep / 2) << job;
    else
      EXPECT_GE(calls.size(), 2u) << job;
  }
};

TEST(Progress, EveryJobReportsRisingFiguresToItsWhole) {
  gen::Options options;
  options.game = Game::ac2;
  options.visuals = 8000;  // ~5.6 MB
  Recorder generating;
  options.progress = generating.fn();
  std::vector<u8> bytes = gen::generate_bytes(options);
  ASSERT_GT(bytes.size(), 4 * ProgressSteps::kStep);
  ASSERT_FALSE(generating.calls.empty());
  EXPECT_EQ(generating.calls.back(), std::make_pair(bytes.size(), bytes.size()));
  for (std::size_t i = 1; i < generating.calls.size(); ++i)
    EXPECT_LE(generating.calls[i - 1].first, generating.calls[i].first);

  Recorder verifying, carving, counting, dumping, dumping_full;
  EXPECT_TRUE(verify_bytes(bytes, Game::ac2, false, verifying.fn()).identical());
  verifying.expect_ends_at(bytes.size(), "verify");
  carve_level(bytes, Game::ac2, {}, {}, carving.fn());
  carving.expect_ends_at(bytes.size(), "carve");
  stats::Census census;
  census.add_file(bytes, Game::ac2, 0, {}, counting.fn());
  counting.expect_ends_at(bytes.size(), "stats");
  std::FILE* sink = std::fopen(test::on_windows() ? "NUL" : "/dev/null", "w");
  ASSERT_NE(sink, nullptr);
  std::size_t objects = 0;
  ASSERT_TRUE(dump_json(bytes, {Game::ac2, false}, sink, dumping.fn(), &objects));
  EXPECT_EQ(objects, 8000u);
  dumping.expect_ends_at(bytes.size(), "dump");
  ASSERT_TRUE(dump_json(bytes, {Game::ac2, true}, sink, dumping_full.fn()));
  dumping_full.expect_ends_at(2 * bytes.size(), "dump --full");  // objects, then spans
  std::fclose(sink);

  // patch's write: the output streamed, then read back and checked (two passes).
  Level level = carve_level(bytes, Game::ac2);
  patch::PatchOutcome outcome = patch::apply_patch_text(level, "[]");
  ASSERT_FALSE(outcome.error);
  test::TempDir dir;
  Recorder writing;
  ASSERT_TRUE(patch::write_patched(level, outcome.result, dir.path("out.bin"), nullptr, {}, writing.fn()).ok());
  writing.expect_ends_at(2 * bytes.size(), "patch", false);
  EXPECT_EQ(test::read_file(dir.path("out.bin")), bytes);
}

}  // namespace
}  // namespace anvil
