// Replays every input that a fuzz campaign kept (tests/regress/<target>/, docs/fuzzing.md) through the
// very invariant its harness asserts (fuzz/invariants.hpp), on every test run.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "fuzz/forge_invariants.hpp"
#include "fuzz/invariants.hpp"
#include "patch/patch.hpp"
#include "pipeline/build.hpp"
#include "pipeline/dump.hpp"
#include "reader/json_numbers.hpp"
#include "reader/level.hpp"
#include "reader/level_source.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

namespace fs = std::filesystem;

const std::vector<std::string> kTargets = {"carve", "json", "dump", "patch", "forge"};

fs::path regress_dir() { return fs::path(ANVILRT_CORPUS).parent_path() / "tests" / "regress"; }

struct Input {
  std::string target;
  std::string path;
};

std::vector<Input> inputs() {
  std::vector<Input> all;
  for (const std::string& target : kTargets) {
    fs::path dir = regress_dir() / target;
    if (!fs::is_directory(dir)) continue;
    std::vector<std::string> files;
    for (const auto& entry : fs::directory_iterator(dir))
      if (entry.is_regular_file() && entry.path().filename().string()[0] != '.') files.push_back(entry.path().string());
    std::sort(files.begin(), files.end());
    for (auto& f : files) all.push_back({target, f});
  }
  return all;
}

std::string check(const std::string& target, std::span<const u8> bytes) {
  // The carve campaigns' inputs were kept when carve also split: both invariants hold on them.
  if (target == "carve") {
    if (auto v = fuzz::check_carve(bytes); !v.empty()) return v;
    return fuzz::check_split_carve(bytes);
  }
  if (target == "json") return fuzz::check_json(bytes);
  if (target == "dump") return fuzz::check_dump(bytes);
  if (target == "patch") return fuzz::check_patch_on_corpus(bytes, ANVILRT_CORPUS);
  if (target == "forge") return fuzz::check_forge(bytes);
  return "no invariant for target " + target;
}

class Regress : public ::testing::TestWithParam<Input> {};

TEST_P(Regress, InvariantHolds) {
  auto bytes = test::read_file(GetParam().path);
  EXPECT_EQ(check(GetParam().target, bytes), "") << GetParam().path;
}

INSTANTIATE_TEST_SUITE_P(Fuzz, Regress, ::testing::ValuesIn(inputs()), [](const auto& info) {
  std::string name = info.param.target + "_" + fs::path(info.param.path).filename().string();
  for (char& c : name)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return name;
});
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Regress);

// The replay is not vacuous: every harness has kept at least one input.
TEST(RegressFolder, EveryTargetHasInputs) {
  for (const std::string& target : kTargets) {
    auto all = inputs();
    EXPECT_TRUE(std::any_of(all.begin(), all.end(), [&](const Input& i) { return i.target == target; }))
        << "tests/regress/" << target << "/ is empty";
  }
}

// The invariants themselves: they hold on the corpus and on its dumps, and the json check accepts a
// clean refusal (not JSON, no spans, a wrong size) as a pass, not as a crash.
TEST(RegressInvariants, HoldOnTheCorpus) {
  for (const char* folder : {"ac2", "sws"})
    for (const auto& file : test::corpus_files(folder)) {
      auto bytes = test::read_file(file);
      EXPECT_EQ(fuzz::check_carve(bytes), "") << file;
      EXPECT_EQ(fuzz::check_dump(bytes), "") << file;
    }
}

TEST(RegressInvariants, JsonRefusalsAreClean) {
  for (std::string text : {"", "{", "[]", "{\"format\":\"anvilrt/1\",\"game\":\"ac2\",\"size\":0,\"objects\":{}}",
                           "{\"format\":\"anvilrt/1\",\"game\":\"ac2\",\"size\":1,\"objects\":{},\"spans\":[]}"}) {
    std::vector<u8> bytes(text.begin(), text.end());
    EXPECT_EQ(fuzz::check_json(bytes), "") << text;
  }
  std::string empty = "{\"format\":\"anvilrt/1\",\"game\":\"sws\",\"size\":0,\"objects\":{},\"spans\":[]}";
  EXPECT_EQ(fuzz::check_json({reinterpret_cast<const u8*>(empty.data()), empty.size()}), "");
}

std::string patch_check(const std::string& text) {
  return fuzz::check_patch_on_corpus({reinterpret_cast<const u8*>(text.data()), text.size()}, ANVILRT_CORPUS);
}

// The patch invariant holds on refusals and on patches that apply; every seed patch of the harness
// applies (so that the campaign starts from patches that reach the engine's writing path).
TEST(RegressInvariants, PatchInvariant) {
  EXPECT_EQ(patch_check(""), "");
  EXPECT_EQ(patch_check("[{\"op\":\"replace\",\"path\":\"/spans/0/offset\",\"value\":1}]"), "");
  EXPECT_EQ(patch_check("[{\"op\":\"swap_material\",\"from\":\"0x3333333333333333\",\"to\":\"0x5555555555555555\"}]"),
            "");
  EXPECT_EQ(patch_check("[{\"op\":\"set_switch_distance\",\"objects\":\"*\",\"slot\":2,\"value\":12.5}]"), "");
  for (const char* folder : {"ac2", "sws"})
    for (const auto& file :
         std::filesystem::directory_iterator(fs::path(ANVILRT_CORPUS).parent_path() / "fuzz" / "seeds" / "patch")) {
      if (!file.path().filename().string().starts_with(folder)) continue;
      std::string text = test::read_text(file.path().string());
      EXPECT_EQ(patch_check(text), "") << file.path();
      for (const fuzz::PatchBase& base : fuzz::kPatchBases) {
        if (base.game != (std::string(folder) == "ac2" ? Game::ac2 : Game::sws)) continue;
        auto bytes = test::read_file(test::corpus(base.file));
        if (base.data_file) bytes = fuzz::wrap_in_data_file(bytes);
        Level level =
            base.data_file ? carve_source(bytes, detect_source(bytes), base.game) : carve_level(bytes, base.game);
        auto outcome = patch::apply_patch_text(level, text);
        EXPECT_FALSE(outcome.error.has_value()) << file.path() << ": " << outcome.error->message();
      }
    }
}

// The seeds that change objects' sizes (resize_*) hold the invariant, apply to the data-file bases of
// their dialect (FORGE.md 5) and are refused on the level-file bases (FORMAT.md 1).
TEST(RegressInvariants, ResizingPatchSeeds) {
  std::size_t seeds = 0;
  for (const auto& file :
       std::filesystem::directory_iterator(fs::path(ANVILRT_CORPUS).parent_path() / "fuzz" / "seeds" / "patch")) {
    std::string name = file.path().filename().string();
    if (!name.starts_with("resize_")) continue;
    ++seeds;
    std::string text = test::read_text(file.path().string());
    EXPECT_EQ(patch_check(text), "") << file.path();
    for (const fuzz::PatchBase& base : fuzz::kPatchBases) {
      if (name.find(std::string("_") + std::string(game_name(base.game)) + "_") == std::string::npos) continue;
      auto bytes = test::read_file(test::corpus(base.file));
      if (base.data_file) bytes = fuzz::wrap_in_data_file(bytes);
      Level level =
          base.data_file ? carve_source(bytes, detect_source(bytes), base.game) : carve_level(bytes, base.game);
      auto outcome = patch::apply_patch_text(level, text);
      if (base.data_file)
        EXPECT_FALSE(outcome.error.has_value()) << file.path() << ": " << outcome.error->message();
      else
        EXPECT_TRUE(outcome.error.has_value() && outcome.error->reason.find("cannot change size") != std::string::npos)
            << file.path();
    }
  }
  EXPECT_GE(seeds, 6u);
}

// Found by the json and patch campaigns: RapidJSON 1.1.0 misreads these numbers (UBSan: clz(0) in
// StrtodDiyFp); `build` and `patch` refuse them instead of writing a wild value.
TEST(RapidJsonNumbers, MisreadNumbersAreFound) {
  for (std::string_view bad : {"0E+222", "0E40", "-0e5", "0.0000000000000000000000000", "184467440737095516159",
                               "-184467440737095516155", "0.184467440737095516157", "1.84467440737095516159e-30",
                               "[1, 0E40]", "{\"a\":\"x\",\"b\":184467440737095516158}"})
    EXPECT_TRUE(misread_json_number(bad).has_value()) << bad;
  for (std::string_view good :
       {"0", "-0", "-0.0", "0.5", "1e300", "18446744073709551615", "184467440737095516149", "1844674407370955161",
        "\"0E+222\"", "\"a\\\"0E+222\"", "0.000000000000000000001", "{\"format\":\"anvilrt/1\",\"size\":612}"})
    EXPECT_FALSE(misread_json_number(good).has_value()) << good;
  EXPECT_EQ(misread_json_number("[1, 2, 0E40]"), 7u);
}

TEST(RapidJsonNumbers, BuildAndPatchRefuseThem) {
  auto bytes = test::read_file(test::corpus("ac2/direct_mesh.bin"));
  std::string dump = dump_json(bytes, {Game::ac2, true});
  std::size_t at = dump.find("\"data_f32\":[");
  ASSERT_NE(at, std::string::npos);
  at += std::string("\"data_f32\":[").size();
  std::string edited = dump.substr(0, at) + "0E+222" + dump.substr(dump.find_first_of(",]", at));
  auto built = build_from_dump(edited);
  ASSERT_FALSE(built.ok()) << "0E+222 must not build (RapidJSON 1.1.0 reads it as 4.5e220)";
  EXPECT_NE(built.status().message().find("misread"), std::string_view::npos) << built.status();

  auto base = test::read_file(test::corpus("ac2/lod_selector_slots.bin"));
  auto outcome = patch::apply_patch_text(
      carve_level(base, Game::ac2),
      "[{\"op\":\"replace\",\"path\":\"/objects/0x00000000000004d2/tail/data_f32/0\",\"value\":0E40}]");
  ASSERT_TRUE(outcome.error.has_value());
  EXPECT_EQ(outcome.error->exit_code, patch::kBadPatch);
  EXPECT_NE(outcome.error->message().find("misread"), std::string::npos) << outcome.error->message();
}

}  // namespace
}  // namespace anvil
