// The example patches of corpus/patches/ applied to their corpus files by the command line (as the
// README shows it, dialect auto), checked against the same edits made on the typed model; applied a
// second time to their own output, each fails its first test.
#include <gtest/gtest.h>

#include <filesystem>

#include "reader/level.hpp"
#include "tests/test_support.hpp"
#include "writer/encode.hpp"

namespace anvil {
namespace {

struct Example {
  std::string patch;
  std::string file;
  Game game;
};

std::vector<u8> expected_bytes(const std::string& patch, const std::vector<u8>& bytes, Game game) {
  Level level = carve_level(bytes, game);
  std::vector<Object> objects = parse_objects(level);
  if (patch == "swap_material") {
    auto& lod = std::get<ac2::LODSelectorInstance>(std::get<ac2::Visual>(objects[0]).instance->body);
    auto& mats = std::get<ac2::MeshInstanceData>(lod.slots[1]->body).materials;
    mats[0].replacement.value = 0x4444444444444444;
    mats[1].replacement.value = 0x4444444444444445;
    mats[1].mode = 1;
  } else if (patch == "move_instances") {
    auto& lod = std::get<ac2::LODSelectorInstance>(std::get<ac2::Visual>(objects[0]).instance->body);
    lod.instances[0][12] = 110, lod.instances[0][14] = 27.5f;
    auto& slot = std::get<ac2::MeshInstanceData>(lod.slots[1]->body).instances[0];
    slot[12] = 98.5f, slot[14] = 97.5f;
  } else if (patch == "rotate_instances") {
    auto& m = std::get<ac2::MeshInstanceData>(std::get<ac2::Visual>(objects[0]).instance->body).instances;
    m[0] = {0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1, 0, 0, 5, -5, 1};
    m[1] = {-1, 0, 0, 0, 0, -1, 0, 0, 0, 0, 1, 0, -8, 7, 9, 1};
  } else if (patch == "switch_distance") {
    for (auto& o : objects)
      for (auto& slot : std::get<sws::LODSelector>(o).slots)
        if (slot.object.value != 0) slot.switch_distance *= 1.5f;
    std::get<sws::LODSelector>(objects[1]).slots[4].switch_distance = 2000;
  }
  return write_level(level, objects);
}

class PatchExamples : public ::testing::TestWithParam<Example> {};

TEST_P(PatchExamples, AppliesAsTheReadmeShows) {
  const Example& e = GetParam();
  test::TempDir dir;
  std::string patch = test::corpus("patches/" + e.patch + ".json");
  std::string file = test::corpus(e.file);
  std::vector<u8> original = test::read_file(file);
  std::vector<u8> expected = expected_bytes(e.patch, original, e.game);
  ASSERT_NE(expected, original);
  auto r = test::run_cli({"patch", file, patch, "-o", dir.path("out.bin")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(dir.path("out.bin")), expected);
  // The diff of the two files, applied to the original, gives the same bytes.
  auto d = test::run_cli({"diff", file, dir.path("out.bin")});
  ASSERT_EQ(d.exit_code, 0) << d.err;
  test::write_file(dir.path("diff.json"), {reinterpret_cast<const u8*>(d.out.data()), d.out.size()});
  r = test::run_cli({"patch", file, dir.path("diff.json"), "-o", dir.path("again.bin")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(dir.path("again.bin")), expected);
  // Twice: the leading test fails.
  r = test::run_cli({"patch", dir.path("out.bin"), patch, "-o", dir.path("twice.bin")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find(": op 0 ("), std::string::npos) << r.err;
  EXPECT_FALSE(std::filesystem::exists(dir.path("twice.bin")));
}

INSTANTIATE_TEST_SUITE_P(Corpus, PatchExamples,
                         ::testing::Values(Example{"swap_material", "ac2/lod_selector_slots.bin", Game::ac2},
                                           Example{"move_instances", "ac2/lod_selector_slots.bin", Game::ac2},
                                           Example{"rotate_instances", "ac2/direct_mesh.bin", Game::ac2},
                                           Example{"switch_distance", "sws/lod_selector.bin", Game::sws}),
                         [](const auto& info) { return info.param.patch; });

}  // namespace
}  // namespace anvil
