// model/parallel.hpp: results reported in index order whatever order the jobs finish in, a job's exception
// rethrown on the caller with nothing reported past it, and --jobs as the budget every parallel step asks.
#include "model/parallel.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <stdexcept>
#include <string>
#include <thread>
#include <vector>

#include "tests/test_support.hpp"

namespace anvil {
namespace {

TEST(Parallel, ResultsAreReportedInIndexOrder) {
  for (unsigned threads : {1u, 2u, 5u}) {
    std::vector<std::size_t> reported;
    for_each_index_in_order<std::size_t>(
        40, threads,
        [](std::size_t i) {
          // Early indices finish last.
          std::this_thread::sleep_for(std::chrono::microseconds(i % 4 == 0 ? 2000 : 10));
          return i * i;
        },
        [&](std::size_t i, std::size_t& r) {
          EXPECT_EQ(r, i * i);
          reported.push_back(i);
        });
    ASSERT_EQ(reported.size(), 40u) << threads;
    for (std::size_t i = 0; i < reported.size(); ++i) EXPECT_EQ(reported[i], i);
  }
}

TEST(Parallel, AJobsExceptionReachesTheCallerAndStopsTheReports) {
  std::vector<std::size_t> reported;
  EXPECT_THROW(for_each_index_in_order<int>(
                   100, 3,
                   [](std::size_t i) -> int {
                     if (i == 7) throw std::runtime_error("job 7");
                     return 0;
                   },
                   [&](std::size_t i, int&) { reported.push_back(i); }),
               std::runtime_error);
  for (std::size_t i = 0; i < reported.size(); ++i) EXPECT_EQ(reported[i], i);
  EXPECT_LE(reported.size(), 7u);
}

TEST(Parallel, TheBudgetIsWhatWasSetElseOnePerCore) {
  set_thread_budget(3);
  EXPECT_EQ(thread_budget(), 3u);
  set_thread_budget(0);
  EXPECT_EQ(thread_budget(), std::max(1u, std::thread::hardware_concurrency()));
}

// --jobs is taken by every command with a parallel step, checked in one place, and changes no output.
TEST(Parallel, JobsIsOneOptionOfEveryCommandWithAParallelStep) {
  test::TempDir dir;
  const std::string archive = test::corpus("forge/ac2_five_forms.forge");
  const std::string patch = dir.path("p.json");
  const std::string text =
      R"([{"op": "replace", "path": "/objects/0xa7f13e8d804b9c06/instance/instances/0/12", "value": -600.0}])";
  test::write_file(patch, {reinterpret_cast<const u8*>(text.data()), text.size()});
  auto one = test::run_cli({"patch", archive, patch, "-o", dir.path("one.forge"), "--jobs", "1"});
  ASSERT_EQ(one.exit_code, 0) << one.err;
  auto all = test::run_cli({"patch", archive, patch, "-o", dir.path("all.forge")});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_EQ(test::read_file(dir.path("one.forge")), test::read_file(dir.path("all.forge")));
  for (const char* command : {"verify", "stats", "ls", "patch", "put", "pack", "compact"}) {
    auto help = test::run_cli({command, "--help"});
    EXPECT_NE(help.out.find("-j [ --jobs ] arg"), std::string::npos) << command << "\n" << help.out;
  }
  auto bad = test::run_cli({"compact", archive, "-o", dir.path("c.forge"), "-j", "0"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "anvilrt: --jobs 0: must be 1 or more\n");
}

}  // namespace
}  // namespace anvil
