// The data-file layouts 0-3 (FORGE.md 7): for each, a generated archive round-trips byte for byte, is found
// by content, extracts to the generator's data files, refuses a wrong layout named with one line, and takes
// a patch of one object addressed through its data file.
#include <absl/strings/str_format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <regex>

#include "gen/forge.hpp"
#include "model/forge/variant.hpp"
#include "pipeline/forge_rewrite.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

using ::testing::HasSubstr;

gen::ForgeOptions layout_options(u8 layout) {
  gen::ForgeOptions o;
  o.layout = layout;
  o.visuals = 3;
  o.datafiles = 5;
  o.seed = 7;
  o.block_size = 300;  // several blocks and chunks per data file
  return o;
}

TEST(ForgeLayouts, VariantCodeZeroIsVersion25Layout1AndOfInvertsCode) {
  EXPECT_EQ(forge::ForgeVariant{}.code(), 0u);
  for (u32 v = forge::ForgeVariant::kFirst; v <= forge::ForgeVariant::kLast; ++v)
    for (u8 l = 0; l < forge::ForgeVariant::kLayouts; ++l) {
      const forge::ForgeVariant x{v, l};
      EXPECT_EQ(forge::ForgeVariant::of(x.code()), x);
    }
}

TEST(ForgeLayouts, EveryLayoutRoundTripsAndIsFoundByContent) {
  for (u8 layout = 0; layout < 4; ++layout) {
    SCOPED_TRACE(absl::StrFormat("layout %d", layout));
    gen::ForgeRecord rec;
    std::vector<u8> bytes = gen::generate_forge(layout_options(layout), &rec);
    auto archive = forge::read_archive(bytes);
    ASSERT_TRUE(archive.ok()) << archive.status();
    EXPECT_EQ(archive->data_layout, layout);
    for (std::size_t i = 0; i < archive->files.size(); ++i) {
      auto read = forge::read_data_file(bytes, *archive, i, forge::ChecksumVerdict{});
      ASSERT_TRUE(read.ok()) << read.status();
      EXPECT_TRUE(std::ranges::equal(read->decoded.bytes, rec.files[i].decoded));
      auto view = forge::view_data_file(read->decoded.bytes, archive->variant());
      ASSERT_TRUE(view.ok()) << view.status();
      EXPECT_EQ(view->file.entries.size(), rec.files[i].entries);
    }
    auto again = forge::round_trip(bytes);
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_TRUE(*again == bytes);
  }
}

TEST(ForgeLayouts, ExtractGivesTheGeneratorsDataFilesAndLsShowsTheLayout) {
  test::TempDir dir;
  for (u8 layout = 0; layout < 4; ++layout) {
    SCOPED_TRACE(absl::StrFormat("layout %d", layout));
    const std::string forge = dir.path(absl::StrFormat("l%d.forge", layout));
    auto rec = gen::generate_forge_file(layout_options(layout), forge);
    ASSERT_TRUE(rec.ok()) << rec.status();
    auto r = test::run_cli({"ls", forge});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr(absl::StrFormat("  layout %d\n", layout)));
    const std::string x = dir.path(absl::StrFormat("x%d", layout));
    r = test::run_cli({"extract", forge, "-o", x, "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    for (const auto& f : rec->files) EXPECT_EQ(test::read_file(x + "/" + f.name + ".data"), f.decoded) << f.name;
    r = test::run_cli({"verify", forge, "-q"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    // The layout named agrees with the one found.
    r = test::run_cli({"ls", "--layout", std::to_string(layout), forge});
    EXPECT_EQ(r.exit_code, 0) << r.err;
  }
}

TEST(ForgeLayouts, AWrongLayoutNamedIsRefusedInOneLine) {
  test::TempDir dir;
  for (u8 layout = 0; layout < 4; ++layout) {
    SCOPED_TRACE(absl::StrFormat("layout %d", layout));
    const std::string forge = dir.path(absl::StrFormat("w%d.forge", layout));
    ASSERT_TRUE(gen::generate_forge_file(layout_options(layout), forge).ok());
    const std::string wrong = std::to_string((layout + 1) % 4);
    auto r = test::run_cli({"extract", "--layout", wrong, forge, "-o", dir.path("wx" + wrong), "-q"});
    EXPECT_NE(r.exit_code, 0);
    // Each error is one line naming the offset and the data file.
    std::istringstream lines(r.err);
    std::string line;
    ASSERT_TRUE(std::getline(lines, line));
    EXPECT_TRUE(std::regex_search(line, std::regex("offset 0x[0-9a-f]+: data file [0-9]+ 'DataFile_[0-9]+'"))) << line;
  }
  auto r = test::run_cli({"ls", "--layout", "4", dir.path("w0.forge")});
  EXPECT_NE(r.exit_code, 0);
}

TEST(ForgeLayouts, AnObjectPatchedInLayouts0And3) {
  test::TempDir dir;
  for (u8 layout : {u8{0}, u8{3}}) {
    SCOPED_TRACE(absl::StrFormat("layout %d", layout));
    const std::string forge = dir.path(absl::StrFormat("p%d.forge", layout));
    ASSERT_TRUE(gen::generate_forge_file(layout_options(layout), forge).ok());
    auto r = test::run_cli({"dump", forge, "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::smatch m;
    const std::regex key(R"re("(DataFile_[0-9]+)":\{"size":[0-9]+,"objects":\{"(0x[0-9a-f]{16})")re");
    ASSERT_TRUE(std::regex_search(r.out, m, key)) << r.out.substr(0, 300);
    const std::string text = absl::StrFormat(
        R"([{"op":"replace","path":"/datafiles/%s/objects/%s/managed","value":1}])", m[1].str(), m[2].str());
    const std::string patch = dir.path(absl::StrFormat("p%d.json", layout));
    test::write_file(patch, std::vector<u8>(text.begin(), text.end()));
    const std::string out = forge + ".patched";
    r = test::run_cli({"patch", forge, patch, "-o", out, "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    r = test::run_cli({"ls", out});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr(absl::StrFormat("  layout %d\n", layout)));
    r = test::run_cli({"dump", out, "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.out, HasSubstr(absl::StrFormat(R"("%s":{"offset")", m[2].str())));
    auto bytes = test::read_file(out);
    auto again = forge::round_trip(bytes);
    ASSERT_TRUE(again.ok()) << again.status();
    EXPECT_TRUE(*again == bytes);
  }
}

}  // namespace
}  // namespace anvil
