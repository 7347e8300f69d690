// The help texts list the archive versions, layouts and compressions as the per-variant table has them
// (model/forge/variant_table.hpp): the lists are built from its rows, and gen, ls and pack print what they
// yield, so that a new row changes every help text (and the man page made from them).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "gen/forge.hpp"
#include "model/forge/variant.hpp"
#include "tests/test_support.hpp"

namespace anvil::forge {
namespace {

using ::testing::HasSubstr;

// The text with every run of spaces and line breaks as one space (the option descriptions are wrapped).
std::string flat(const std::string& text) {
  std::string out;
  for (char c : text) {
    const bool space = c == ' ' || c == '\n';
    if (space && (out.empty() || out.back() == ' ')) continue;
    out += space ? ' ' : c;
  }
  return out;
}

std::string help(const char* command) {
  auto r = test::run_cli({command, "--help"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return flat(r.out);
}

TEST(HelpFromTable, TheListsAreTheRows) {
  EXPECT_STREQ(version_choices(), "25|26|27");
  EXPECT_STREQ(layout_choices(), "0|1|2|3");
  EXPECT_STREQ(versions_with_games(), "25 (AC1 to Revelations), 26 or 27 (Unity: 64-bit ids, no data file headers)");
  EXPECT_EQ(layouts_with_games(1), "0 (AC1), 1 (AC2, the default), 2 (AC3, AC4) or 3 (Unity)");
  EXPECT_STREQ(compressed_names(), "LZO1X, LZO2A or LZO1C");
  EXPECT_STREQ(known_compression_names(), "plain, lzo1x, lzo2a or lzo1c");
  EXPECT_STREQ(known_versions(), "25, 26 or 27");
}

TEST(HelpFromTable, GenLsAndPackSayWhatTheTableYields) {
  const gen::ForgeOptions defaults;
  const std::string gen = help("gen");
  EXPECT_THAT(
      gen, HasSubstr(std::string("[--forge-version ") + version_choices() + "] [--layout " + layout_choices() + "]"));
  EXPECT_THAT(gen, HasSubstr(flat(std::string("the archive version, ") + versions_with_games() + "; default " +
                                  std::to_string(defaults.version))));
  EXPECT_THAT(gen, HasSubstr(flat("the data-file layout: " + layouts_with_games(defaults.layout))));
  EXPECT_THAT(gen, HasSubstr("version " + std::to_string(defaults.version) + " unless --forge-version"));
  const std::string ls = help("ls");
  EXPECT_THAT(ls, HasSubstr(std::string("(version ") + known_versions() + ")"));
  EXPECT_THAT(ls, HasSubstr(std::string("compression (") + known_compression_names() + ")"));
  EXPECT_THAT(
      ls, HasSubstr("16 in archive version " + std::to_string(variant_table::first_version(&VersionRow::wide_ids))));
  EXPECT_THAT(help("pack"), HasSubstr(std::string("its algorithm (") + compressed_names() + " at -999)"));
}

}  // namespace
}  // namespace anvil::forge
