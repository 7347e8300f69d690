// diff of two decompressed data files whose objects changed size (FORGE.md 5): the arrays that changed
// length become `add`s and `remove`s, and the patch printed, applied by `anvilrt patch`, gives B.
#include <absl/strings/str_cat.h>
#include <gtest/gtest.h>

#include <fstream>
#include <ostream>

#include "patch/diff.hpp"
#include "reader/level_source.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

using test::run_cli;

Level carve_data_file(const std::vector<u8>& bytes, Game game) {
  Source source = detect_source(bytes);
  EXPECT_EQ(source.kind, SourceKind::data_file);
  return carve_source(bytes, source, game);
}

// The game, and the archive version and data-file layout (FORGE.md 7) the data files are read in.
struct DiffResizeCase {
  std::string game, version, layout;
};
void PrintTo(const DiffResizeCase& c, std::ostream* os) {
  *os << c.game << " v" << c.version << " layout " << c.layout;
}

class DiffResize : public ::testing::TestWithParam<DiffResizeCase> {};

TEST_P(DiffResize, DiffThenPatchReproducesAResizedDataFile) {
  const std::string game = GetParam().game;
  test::TempDir tmp;
  std::string forge = tmp.path("a.forge");
  ASSERT_EQ(run_cli({"gen", "--forge", "--game", game, "--forge-version", GetParam().version, "--layout",
                     GetParam().layout, "--visuals", "20", "--seed", "5", "-o", forge, "-q"})
                .exit_code,
            0);
  ASSERT_EQ(run_cli({"extract", forge, "DataFile_000", "-o", tmp.path("x"), "-q"}).exit_code, 0);
  std::string a_path = tmp.path("x/DataFile_000.data");
  // B: instances duplicated in every Visual that has one (and, in ac2, a material appended to each mesh),
  // then one removed from the first Visual again: arrays grow in most objects and shrink in none, or
  // shrink where A is patched from B.
  std::string ops =
      game == "ac2"
          ? R"([{"op":"duplicate_instance","objects":"*","index":0,"translate":[1,2,3]},
                             {"op":"add_material","objects":"*","source":"0x0000000000000001",
                              "replacement":"0x0000000000000002","mode":1}])"
          : R"([{"op":"duplicate_instance","objects":"*","index":0,"matrix":[0,1,0,0,-1,0,0,0,0,0,1,0,0,0,0,1]}])";
  std::string patch = tmp.path("edit.json");
  { std::ofstream(patch) << ops; }
  std::string b_path = tmp.path("b.data");
  auto r = run_cli({"patch", a_path, patch, "-o", b_path, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<u8> a = test::read_file(a_path), b = test::read_file(b_path);
  ASSERT_GT(b.size(), a.size());
  Game g = *parse_game(game);
  Level la = carve_data_file(a, g), lb = carve_data_file(b, g);
  // Both ways: A to B adds elements, B to A removes them.
  for (bool forward : {true, false}) {
    SCOPED_TRACE(forward ? "A to B" : "B to A");
    const Level& from = forward ? la : lb;
    const Level& to = forward ? lb : la;
    patch::DiffOutcome diff = patch::diff_levels(from, to);
    ASSERT_FALSE(diff.error) << *diff.error;
    std::string text = patch::diff_to_patch_json(diff.ops);
    EXPECT_NE(text.find(forward ? R"("op": "add")" : R"("op": "remove")"), std::string::npos) << text;
    std::string diff_path = tmp.path("diff.json");
    { std::ofstream(diff_path) << text; }
    std::string out = tmp.path("out.data");
    r = run_cli({"patch", forward ? a_path : b_path, diff_path, "-o", out, "-q"});
    ASSERT_EQ(r.exit_code, 0) << r.err << text;
    EXPECT_TRUE(test::read_file(out) == (forward ? b : a));
    // `anvilrt diff` of the two data files prints that patch.
    r = run_cli({"diff", forward ? a_path : b_path, forward ? b_path : a_path, "-q"});
    EXPECT_EQ(r.exit_code, 1) << r.err;
    EXPECT_EQ(r.out, text);
  }
}

INSTANTIATE_TEST_SUITE_P(BothGamesAndLayouts, DiffResize,
                         ::testing::Values(DiffResizeCase{"ac2", "25", "1"}, DiffResizeCase{"sws", "25", "1"},
                                           DiffResizeCase{"ac2", "25", "0"}, DiffResizeCase{"ac2", "27", "3"}),
                         [](const auto& info) {
                           return info.param.game + "_v" + info.param.version + "_layout" + info.param.layout;
                         });

TEST(DiffResize, EntrySizesThatDoNotFollowTheObjectsAreRefused) {
  test::TempDir tmp;
  std::string forge = tmp.path("a.forge");
  ASSERT_EQ(run_cli({"gen", "--forge", "--game", "ac2", "--visuals", "20", "--seed", "5", "-o", forge, "-q"}).exit_code,
            0);
  ASSERT_EQ(run_cli({"extract", forge, "DataFile_000", "-o", tmp.path("x"), "-q"}).exit_code, 0);
  std::vector<u8> a = test::read_file(tmp.path("x/DataFile_000.data"));
  std::vector<u8> b = a;
  b[6] ^= 1;  // the first entry's data_size, with no object grown
  Level la = carve_data_file(a, Game::ac2), lb = carve_data_file(b, Game::ac2);
  patch::DiffOutcome diff = patch::diff_levels(la, lb);
  ASSERT_TRUE(diff.error);
  EXPECT_EQ(*diff.error, "entry 0's sizes do not change by the 0 bytes its objects grew");
}

}  // namespace
}  // namespace anvil
