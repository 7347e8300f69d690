// `anvilrt mod sync` through the binary (docs/mods.md, Sync): on a generated game folder of three
// archives, with four mods (beta and gamma write one field different values), each sync's folder compared
// byte for byte with a fresh install of the same load order.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "patch/rapidjson_document.hpp"
#include "tests/game_folder_support.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

const char* const kSyncArchives[] = {"a1.forge", "a2.forge", "a3.forge"};

std::string replace_in(const std::string& archive, const std::string& datafile, const std::string& key,
                       const std::string& field, int value) {
  return "{\"op\": \"replace\", \"path\": \"/archives/" + archive + "/datafiles/" + datafile + "/objects/" + key + "/" +
         field + "\", \"value\": " + std::to_string(value) + "}";
}

class ModSync : public ::testing::Test {
 protected:
  void SetUp() override {
    test::generate_game_folder(dir_.path("orig"), "ac2", {"a1.forge", "a2.forge", "a3.forge"}, {1, 2, 3}, 3, 2);
    for (const char* a : kSyncArchives)
      for (const auto& [datafile, keys] : test::archive_keys(orig(a))) first_key_[a][datafile] = keys.front();
    conflict_ = "/archives/a3.forge/datafiles/DataFile_002/objects/" + key("a3.forge", "DataFile_002") + "/managed";
    write_alpha("1.0", 3);
    write(mod("beta"),
          "[" + replace_in("a3.forge", "DataFile_002", key("a3.forge", "DataFile_002"), "managed", 5) + "]");
    write(mod("gamma"),
          "{\"anvilrt_mod\": 1, \"name\": \"gamma\", \"patch\": [" +
              replace_in("a3.forge", "DataFile_002", key("a3.forge", "DataFile_002"), "managed", 6) + ", " +
              replace_in("a2.forge", "DataFile_002", key("a2.forge", "DataFile_002"), "active", 0) + "]}");
    write(mod("delta"), "[" + replace_in("a1.forge", "DataFile_001", key("a1.forge", "DataFile_001"), "managed", 7) +
                            ", " +
                            replace_in("a1.forge", "DataFile_000", key("a1.forge", "DataFile_000"), "active", 0) + "]");
  }

  // alpha changes a1 and a2; `value` tells its versions apart.
  void write_alpha(const std::string& version, int value) {
    write(mod("alpha"),
          "{\"anvilrt_mod\": 1, \"name\": \"alpha\", \"version\": \"" + version + "\", \"patch\": [" +
              replace_in("a1.forge", "DataFile_000", key("a1.forge", "DataFile_000"), "managed", value) + ", " +
              replace_in("a2.forge", "DataFile_001", key("a2.forge", "DataFile_001"), "managed", 4) + "]}");
  }

  std::string key(const std::string& archive, const std::string& datafile) { return first_key_[archive][datafile]; }
  std::string orig(const std::string& archive) const { return dir_.path("orig/" + archive); }
  std::string mod(const std::string& name) const { return dir_.path(name + ".json"); }
  static void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

  // A fresh copy of the original folder.
  std::string game(const std::string& name) const {
    const std::string path = dir_.path(name);
    fs::create_directory(path);
    for (const char* a : kSyncArchives) fs::copy_file(orig(a), path + "/" + a);
    return path;
  }

  test::CliResult sync(const std::string& g, const std::vector<std::string>& mods,
                       const std::vector<std::string>& options = {}) const {
    std::vector<std::string> args = {"mod", "sync", g};
    for (const std::string& m : mods) args.push_back(mod(m));
    args.insert(args.end(), options.begin(), options.end());
    return test::run_cli(args);
  }

  // The folder a fresh install of `mods` (in that order) into a copy of the original folder gives.
  test::FolderSnapshot installed(const std::vector<std::string>& mods) {
    const std::string g = game("ref" + std::to_string(refs_++));
    if (!mods.empty()) {
      std::vector<std::string> args = {"mod", "install", g, "--allow-overrides", "-q"};
      for (const std::string& m : mods) args.push_back(mod(m));
      test::CliResult r = test::run_cli(args);
      EXPECT_EQ(r.exit_code, 0) << r.err;
    }
    return test::snapshot_folder(g);
  }

  test::TempDir dir_;
  std::map<std::string, std::map<std::string, std::string>> first_key_;
  std::string conflict_;
  int refs_ = 0;
};

rapidjson::Document json_of(const test::CliResult& r) { return test::parse_json(r.out); }

std::vector<std::string> strings(const rapidjson::Value& array) {
  std::vector<std::string> out;
  for (const auto& s : array.GetArray()) out.emplace_back(s.GetString());
  return out;
}

using Names = std::vector<std::string>;

// From nothing, then one added, one removed, the order turned: each time the bytes of a fresh install.
TEST_F(ModSync, EachLoadOrderIsWhatAFreshInstallOfItGives) {
  const std::string g = game("g");
  test::CliResult first = sync(g, {"alpha", "beta"});
  ASSERT_EQ(first.exit_code, 0) << first.err;
  EXPECT_THAT(first.out, HasSubstr("installed alpha\ninstalled beta\n"));
  EXPECT_EQ(first.err, "") << "no progress bar where standard error is not a terminal";
  EXPECT_TRUE(test::snapshot_folder(g) == installed({"alpha", "beta"}));

  test::CliResult added = sync(g, {"alpha", "beta", "delta"}, {"--json"});
  ASSERT_EQ(added.exit_code, 0) << added.err;
  rapidjson::Document doc = json_of(added);
  EXPECT_EQ(strings(doc["installed"]), Names{"delta"});
  EXPECT_EQ(strings(doc["reinstalled"]), Names{});
  EXPECT_EQ(strings(doc["order"]), (Names{"alpha", "beta", "delta"}));
  EXPECT_TRUE(test::snapshot_folder(g) == installed({"alpha", "beta", "delta"}));

  test::CliResult removed = sync(g, {"alpha", "delta"}, {"--json"});
  ASSERT_EQ(removed.exit_code, 0) << removed.err;
  doc = json_of(removed);
  EXPECT_EQ(strings(doc["uninstalled"]), Names{"beta"});
  EXPECT_EQ(strings(doc["reinstalled"]), Names{}) << "alpha and delta kept their order";
  EXPECT_TRUE(test::snapshot_folder(g) == installed({"alpha", "delta"}));

  test::CliResult turned = sync(g, {"delta", "alpha"}, {"--json"});
  ASSERT_EQ(turned.exit_code, 0) << turned.err;
  doc = json_of(turned);
  EXPECT_EQ(strings(doc["reinstalled"]).size(), 1u) << turned.out;  // one moved, the other kept its place
  EXPECT_EQ(strings(doc["installed"]), Names{});
  EXPECT_TRUE(test::snapshot_folder(g) == installed({"delta", "alpha"}));
  const std::string list = test::run_cli({"mod", "list", g}).out;
  EXPECT_LT(list.find("mod delta"), list.find("mod alpha")) << list;
}

// A mod whose file changed (here a new version) is installed again in its place in the order.
TEST_F(ModSync, AChangedModIsInstalledAgainInItsPlace) {
  const std::string g = game("g");
  ASSERT_EQ(sync(g, {"alpha", "delta"}).exit_code, 0);
  write_alpha("2.0", 9);
  test::CliResult r = sync(g, {"alpha", "delta"}, {"--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  rapidjson::Document doc = json_of(r);
  EXPECT_EQ(strings(doc["reinstalled"]), Names{"alpha"});
  EXPECT_EQ(strings(doc["installed"]), Names{});
  EXPECT_FALSE(doc["nothing_to_do"].GetBool());
  EXPECT_TRUE(test::snapshot_folder(g) == installed({"alpha", "delta"}));
  const std::string list = test::run_cli({"mod", "list", g}).out;
  EXPECT_THAT(list, HasSubstr("mod alpha 2.0 (installed)"));
  EXPECT_LT(list.find("mod alpha"), list.find("mod delta"));
  EXPECT_EQ(test::object_field(g + "/a1.forge", key("a1.forge", "DataFile_000"), "managed"), "9");
}

// With nothing to do, sync reads no archive: the archives mods changed are replaced by other bytes of the
// same size and time (which any read would refuse: the next sync that has something to do does), the one
// no mod changed by a folder; it says so and writes nothing.
TEST_F(ModSync, NothingToDoReadsNoArchiveAndWritesNothing) {
  SKIP_ON_WINDOWS(
      "puts an archive's modification time back, which MinGW's std::filesystem sets to the second only "
      "(platform/file_stamp.hpp)");
  const std::string g = game("g");
  ASSERT_EQ(sync(g, {"alpha"}).exit_code, 0);  // a1 and a2
  const std::string state = g + "/.anvilrt/mods/state.json";
  const std::vector<u8> state_bytes = test::read_file(state);
  const auto state_time = fs::last_write_time(state);
  for (const char* a : {"a1.forge", "a2.forge"}) {
    const std::string path = g + "/" + a;
    const auto time = fs::last_write_time(path);
    std::vector<u8> garbage(fs::file_size(path), 0x5a);
    test::write_file(path, garbage);
    fs::last_write_time(path, time);
  }
  fs::rename(g + "/a3.forge", dir_.path("a3.away"));
  fs::create_directory(g + "/a3.forge");
  test::CliResult r = sync(g, {"alpha"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, "nothing to do: 1 mod installed as given\n");
  EXPECT_EQ(r.err, "");
  test::CliResult j = sync(g, {"alpha"}, {"--json"});
  EXPECT_EQ(j.exit_code, 0) << j.err;
  EXPECT_TRUE(json_of(j)["nothing_to_do"].GetBool());
  EXPECT_TRUE(test::read_file(state) == state_bytes);
  EXPECT_EQ(fs::last_write_time(state), state_time);
  // The same sync with something to do reads the archives, and refuses what it finds there.
  test::CliResult more = sync(g, {"alpha", "delta"});
  EXPECT_EQ(more.exit_code, 2) << more.out;
  EXPECT_THAT(more.err, HasSubstr("changed since anvilrt last wrote it"));
}

// A new time on the bytes anvilrt wrote (a copy, a touch) is looked at once, found the same, and the new
// stamp kept; a state written before digests were kept compares the kept document instead.
TEST_F(ModSync, ANewTimeOrAStateWithoutDigestsIsStillNothingToDo) {
  const std::string g = game("g");
  ASSERT_EQ(sync(g, {"alpha", "beta"}).exit_code, 0);
  const test::FolderSnapshot synced = test::snapshot_folder(g);
  fs::last_write_time(g + "/a1.forge", fs::last_write_time(g + "/a1.forge") + std::chrono::hours(1));
  test::CliResult touched = sync(g, {"alpha", "beta"});
  EXPECT_EQ(touched.exit_code, 0) << touched.err;
  EXPECT_EQ(touched.out, "nothing to do: 2 mods installed as given\n");
  // The state as an anvilrt before digests wrote it.
  const std::string state = g + "/.anvilrt/mods/state.json";
  rapidjson::Document doc = test::parse_json(test::read_text(state));
  for (auto& m : doc["installed"].GetArray()) {
    ASSERT_TRUE(m.HasMember("digest"));
    m.RemoveMember("digest");
  }
  rapidjson::StringBuffer text;
  rapidjson::Writer<rapidjson::StringBuffer> writer(text);
  doc.Accept(writer);
  write(state, text.GetString());
  const auto state_time = fs::last_write_time(state);
  test::CliResult old = sync(g, {"alpha", "beta"});
  EXPECT_EQ(old.exit_code, 0) << old.err;
  EXPECT_EQ(old.out, "nothing to do: 2 mods installed as given\n");
  EXPECT_EQ(fs::last_write_time(state), state_time);
  write_alpha("1.1", 8);
  test::CliResult changed = sync(g, {"alpha", "beta"}, {"--json"});
  ASSERT_EQ(changed.exit_code, 0) << changed.err;
  EXPECT_EQ(strings(json_of(changed)["reinstalled"]), Names{"alpha"});
  EXPECT_FALSE(test::snapshot_folder(g) == synced);
  EXPECT_TRUE(test::snapshot_folder(g) == installed({"alpha", "beta"}));
}

// A game update put an archive's original bytes back and `forget` took it: the next sync that writes puts
// every mod that changes it there again.
TEST_F(ModSync, AForgottenArchiveGetsItsModsAgain) {
  const std::string g = game("g");
  ASSERT_EQ(sync(g, {"alpha"}).exit_code, 0);
  fs::remove(g + "/a1.forge");
  fs::copy_file(orig("a1.forge"), g + "/a1.forge");
  ASSERT_EQ(test::run_cli({"mod", "forget", g, "a1.forge"}).exit_code, 0);
  test::CliResult r = sync(g, {"alpha", "delta"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(test::snapshot_folder(g) == installed({"alpha", "delta"}));
  ASSERT_EQ(sync(g, {}).exit_code, 0);
  EXPECT_TRUE(test::snapshot_folder(g) == installed({}));
}

TEST_F(ModSync, AnEmptyListGivesTheOriginalBytes) {
  const std::string g = game("g");
  ASSERT_EQ(sync(g, {"alpha", "beta", "gamma", "delta"}, {"--allow-overrides"}).exit_code, 0);
  test::CliResult r = sync(g, {}, {"--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(strings(json_of(r)["uninstalled"]), (Names{"alpha", "beta", "gamma", "delta"}));
  EXPECT_TRUE(test::snapshot_folder(g) == installed({}));
  EXPECT_TRUE(fs::is_empty(g + "/.anvilrt/mods/undo"));
  EXPECT_TRUE(fs::is_empty(g + "/.anvilrt/mods/docs"));
  EXPECT_EQ(test::run_cli({"mod", "list", g}).out, "no mods installed\n");
  EXPECT_EQ(sync(g, {}).out, "nothing to do: 0 mods installed as given\n");
}

// A conflict is refused unless the later mod may win; one settled when the two were installed is not
// asked again while they keep their order, and is when the order turns them round.
TEST_F(ModSync, ConflictsAreRefusedUnlessAllowedOrSettled) {
  const std::string g = game("g");
  const test::FolderSnapshot original = test::snapshot_folder(g);
  test::CliResult refused = sync(g, {"beta", "gamma"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_THAT(refused.out,
              HasSubstr("conflict: beta and gamma write " + conflict_ + ": beta leaves 5, gamma leaves 6"));
  EXPECT_THAT(refused.err, HasSubstr("not synced: mods conflict"));
  EXPECT_TRUE(test::snapshot_folder(g) == original);
  rapidjson::Document doc = json_of(sync(g, {"beta", "gamma"}, {"--json"}));
  EXPECT_TRUE(doc["refused"].GetBool());
  ASSERT_EQ(doc["conflicts"].Size(), 1u);
  EXPECT_EQ(std::string(doc["conflicts"][0]["earlier"].GetString()), "beta");
  EXPECT_EQ(std::string(doc["conflicts"][0]["later"].GetString()), "gamma");
  EXPECT_EQ(std::string(doc["conflicts"][0]["pointer"].GetString()), conflict_);
  EXPECT_EQ(doc["conflicts"][0]["earlier_value"].GetInt(), 5);
  EXPECT_EQ(doc["conflicts"][0]["later_value"].GetInt(), 6);
  EXPECT_EQ(doc["overrides"].Size(), 0u);

  test::CliResult allowed = sync(g, {"beta", "gamma"}, {"--allow-overrides", "--json"});
  ASSERT_EQ(allowed.exit_code, 0) << allowed.err;
  doc = json_of(allowed);
  EXPECT_FALSE(doc["refused"].GetBool());
  EXPECT_EQ(doc["conflicts"].Size(), 0u);
  ASSERT_EQ(doc["overrides"].Size(), 1u);
  EXPECT_EQ(std::string(doc["overrides"][0]["later"].GetString()), "gamma");
  EXPECT_TRUE(test::snapshot_folder(g) == installed({"beta", "gamma"}));

  test::CliResult settled = sync(g, {"beta", "gamma", "delta"});
  EXPECT_EQ(settled.exit_code, 0) << settled.out << settled.err;
  EXPECT_THAT(settled.out, Not(HasSubstr("override")));
  test::CliResult turned = sync(g, {"gamma", "beta", "delta"});
  EXPECT_EQ(turned.exit_code, 1);
  EXPECT_THAT(turned.out, HasSubstr("conflict: gamma and beta write " + conflict_));
  EXPECT_TRUE(test::snapshot_folder(g) == installed({"beta", "gamma", "delta"}));
}

// --json: one document, for an error too; a failing operation names its mod.
TEST_F(ModSync, JsonSaysWhatHappenedOrWhatWentWrong) {
  const std::string g = game("g");
  test::CliResult r = sync(g, {"alpha"}, {"--json"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  rapidjson::Document doc = json_of(r);
  for (const char* member : {"dir", "installed", "uninstalled", "reinstalled", "order", "nothing_to_do", "conflicts",
                             "overrides", "failures", "refused", "error"})
    EXPECT_TRUE(doc.HasMember(member)) << member;
  EXPECT_EQ(std::string(doc["dir"].GetString()), g);
  EXPECT_EQ(strings(doc["installed"]), Names{"alpha"});
  EXPECT_TRUE(doc["error"].IsNull());

  test::CliResult missing = sync(g, {"alpha", "nothing"}, {"--json"});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("nothing.json: cannot read the mod"));
  doc = json_of(missing);
  ASSERT_TRUE(doc["error"].IsString());
  EXPECT_THAT(std::string(doc["error"].GetString()), HasSubstr("nothing.json: cannot read the mod"));

  write(mod("failing"), "[{\"op\": \"test\", \"path\": \"/objects/" + key("a2.forge", "DataFile_000") +
                            "/managed\", \"value\": 12345}]");
  test::CliResult failing = sync(g, {"alpha", "failing"}, {"--json"});
  EXPECT_EQ(failing.exit_code, 1);
  doc = json_of(failing);
  EXPECT_TRUE(doc["refused"].GetBool());
  ASSERT_EQ(doc["failures"].Size(), 1u);
  EXPECT_EQ(std::string(doc["failures"][0]["mod"].GetString()), "failing");
  EXPECT_THAT(std::string(doc["failures"][0]["message"].GetString()), HasSubstr("op 0"));
  EXPECT_THAT(std::string(doc["refusal"].GetString()), HasSubstr("not synced"));
  // A mod given twice is bad input.
  EXPECT_EQ(sync(g, {"alpha", "alpha"}).exit_code, 2);
}

// Killed at every step of a sync that removes one mod and adds another, then recovered by the next
// command: every archive entirely as before or entirely as after.
TEST_F(ModSync, SyncsSurviveACrashAtEveryStep) {
  const std::string g = game("g");
  const test::FolderSnapshot original = test::snapshot_folder(g);
  const std::vector<std::string> install = {"mod", "install", g, mod("alpha"), mod("beta"), "-q"};
  ASSERT_EQ(test::run_cli(install).exit_code, 0);
  test::CrashSweep sweep;
  sweep.dir = g;
  sweep.command = {"mod", "sync", g, mod("alpha"), mod("delta"), "-q"};
  sweep.recover = {"mod", "recover", g};
  sweep.before = test::snapshot_folder(g);
  ASSERT_EQ(test::run_cli(sweep.command).exit_code, 0);
  sweep.after = test::snapshot_folder(g);
  ASSERT_TRUE(sweep.after == installed({"alpha", "delta"}));
  sweep.prepare = [&] {
    test::restore_folder(g, original);
    ASSERT_EQ(test::run_cli(install).exit_code, 0);
  };
  test::CrashSweepResult result = test::run_crash_sweep(sweep);
  EXPECT_GT(result.ended_before, 0);
  EXPECT_GT(result.ended_after, 0);
  // Whatever the last run left, the state agrees with the archives: one more sync has nothing to do.
  EXPECT_EQ(sync(g, {"alpha", "delta"}).out, "nothing to do: 2 mods installed as given\n");
}

}  // namespace
}  // namespace anvil
