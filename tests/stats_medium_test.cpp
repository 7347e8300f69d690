// docs/stats-medium.md stays true: each `sh` block's commands (anvilrt gen, then anvilrt stats) are run
// in a temporary folder and the stats output must equal the `text` block that follows. The medium files
// are remade here rather than committed. Their numbers are also checked against the generator's record.
#include <gtest/gtest.h>

#include <sstream>

#include "gen/generator.hpp"
#include "stats/census.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

struct Example {
  std::vector<std::vector<std::string>> commands;  // each without the leading "anvilrt"
  std::string output;
};

std::vector<Example> examples(const std::string& markdown) {
  std::vector<Example> out;
  std::istringstream in(markdown);
  std::string line, block;
  std::string text;
  while (std::getline(in, line)) {
    if (block.empty()) {
      if (line == "```sh") {
        block = "sh";
        out.emplace_back();
      } else if (line == "```text" && !out.empty()) {
        block = "text";
      }
      continue;
    }
    if (line == "```") {
      block.clear();
      continue;
    }
    if (block == "sh") {
      std::istringstream words(line);
      std::vector<std::string> argv;
      for (std::string w; words >> w;) argv.push_back(w);
      EXPECT_EQ(argv.at(0), "anvilrt");
      argv.erase(argv.begin());
      out.back().commands.push_back(argv);
    } else {
      out.back().output += line + "\n";
    }
  }
  return out;
}

TEST(StatsMedium, DocsShowTheStatsOfTheGeneratedMediumFiles) {
  std::string doc = test::read_text(std::string(ANVILRT_CORPUS) + "/../docs/stats-medium.md");
  std::vector<Example> all = examples(doc);
  ASSERT_EQ(all.size(), 2u);
  for (const Example& ex : all) {
    ASSERT_EQ(ex.commands.size(), 2u);
    ASSERT_EQ(ex.commands[0].at(0), "gen");
    ASSERT_EQ(ex.commands[1].at(0), "stats");
    test::TempDir dir;
    std::string file = ex.commands[0].back();
    std::vector<std::string> gen = ex.commands[0];
    gen.back() = dir.path(file);
    auto made = test::run_cli(gen);
    ASSERT_EQ(made.exit_code, 0) << made.err;
    std::vector<std::string> stats = ex.commands[1];
    ASSERT_EQ(stats.back(), file);
    stats.back() = dir.path(file);
    auto census = test::run_cli(stats);
    ASSERT_EQ(census.exit_code, 0) << census.err;
    EXPECT_EQ(census.out, ex.output) << "docs/stats-medium.md is out of date for: anvilrt " << gen[0] << " ... "
                                     << file;
  }
}

TEST(StatsMedium, Ac2MediumFileCountsEqualTheRecord) {
  gen::Options o;
  o.game = Game::ac2;
  o.visuals = 20000;
  o.seed = 1;
  o.near_misses = 12;
  gen::Record r;
  auto bytes = gen::generate_bytes(o, &r);
  stats::Census census;
  census.add_file(bytes, Game::ac2);
  const auto& d = census.dialects.at(Game::ac2);
  EXPECT_EQ(d.objects.at("Visual"), 20000u);
  EXPECT_EQ(d.carved_bytes, r.carved_bytes);
  EXPECT_EQ(d.bytes, r.size);
  EXPECT_EQ(d.ac2.instance_classes, r.instance_classes);
  u64 misses = 0;
  for (const auto& [kind, m] : d.near_misses) misses += m.count;
  EXPECT_EQ(misses, 12u);
}

}  // namespace
}  // namespace anvil
