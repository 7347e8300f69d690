// `anvilrt mod` through the binary (docs/mods.md), on generated game folders of both games: three
// archives, three mods over them with one planted conflict.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <map>
#include <vector>

#include "patch/rapidjson_document.hpp"
#include "platform/paths.hpp"
#include "tests/game_folder_support.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

const char* const kArchives[] = {"a1.forge", "a2.forge", "a3.forge"};

// The keys of each data file of an archive, in dump order.
std::map<std::string, std::vector<std::string>> keys_of(const std::string& archive) {
  test::CliResult r = test::run_cli({"dump", "-q", archive});
  rapidjson::Document doc;
  doc.Parse(r.out.c_str());
  std::map<std::string, std::vector<std::string>> out;
  if (doc.HasParseError() || !doc.IsObject()) return out;
  for (auto& df : doc["datafiles"].GetObject())
    for (auto& o : df.value["objects"].GetObject()) out[df.name.GetString()].push_back(o.name.GetString());
  return out;
}

std::string replace_op(const std::string& path, int value) {
  return "{\"op\": \"replace\", \"path\": \"" + path + "\", \"value\": " + std::to_string(value) + "}";
}

std::string test_op(const std::string& path, int value) {
  return "{\"op\": \"test\", \"path\": \"" + path + "\", \"value\": " + std::to_string(value) + "}";
}

std::string pointer(const std::string& archive, const std::string& datafile, const std::string& key,
                    const std::string& field) {
  return "/archives/" + archive + "/datafiles/" + datafile + "/objects/" + key + "/" + field;
}

// A folder of three generated archives of one game, and three mods: alpha and beta agree on a field (no
// conflict), beta and gamma disagree on another (the planted conflict), gamma addresses an object by its
// key alone.
class ModFolder : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    fs::create_directory(dir_.path("orig"));
    int seed = 1;
    for (const char* a : kArchives) {
      ASSERT_EQ(test::run_cli({"gen", "--forge", "--game", GetParam(), "--datafiles", "3", "--visuals", "2", "--seed",
                               std::to_string(seed++), "-q", "-o", orig(a)})
                    .exit_code,
                0);
      keys_[a] = keys_of(orig(a));
      ASSERT_EQ(keys_[a].size(), 3u) << a;
    }
    agreed_ = pointer("a1.forge", "DataFile_000", key("a1.forge", "DataFile_000"), "managed");
    conflict_key_ = key("a3.forge", "DataFile_002");
    conflict_ = pointer("a3.forge", "DataFile_002", conflict_key_, "managed");
    alpha_ops_ = {replace_op(agreed_, 3),
                  replace_op(pointer("a2.forge", "DataFile_001", key("a2.forge", "DataFile_001"), "managed"), 4)};
    beta_ops_ = {test_op(agreed_, 3), replace_op(agreed_, 3), replace_op(conflict_, 5)};
    gamma_ops_ = {replace_op("/objects/" + conflict_key_ + "/managed", 6),
                  replace_op(pointer("a2.forge", "DataFile_002", key("a2.forge", "DataFile_002"), "active"), 0)};
    write(dir_.path("alpha.json"),
          "{\"anvilrt_mod\": 1, \"name\": \"alpha\", \"version\": \"1.0\", \"author\": \"a\", " +
              std::string("\"game\": \"") + GetParam() + "\", \"patch\": " + array(alpha_ops_) + "}");
    write(dir_.path("beta.json"), array(beta_ops_));
    write(dir_.path("gamma.json"), "{\"anvilrt_mod\": 1, \"name\": \"gamma\", \"patch\": " + array(gamma_ops_) + "}");
  }

  std::string key(const std::string& archive, const std::string& datafile) { return keys_[archive][datafile].front(); }
  std::string orig(const std::string& archive) { return dir_.path("orig/" + archive); }
  std::string mod(const char* name) { return dir_.path(std::string(name) + ".json"); }
  static std::string array(const std::vector<std::string>& ops) {
    std::string out = "[";
    for (const std::string& op : ops) out += (out.size() > 1 ? ", " : "") + op;
    return out + "]";
  }
  static void write(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

  // A fresh copy of the original folder.
  std::string game(const std::string& name) {
    const std::string path = dir_.path(name);
    fs::create_directory(path);
    for (const char* a : kArchives) fs::copy_file(orig(a), path + "/" + a);
    return path;
  }
  void expect_same_archives(const std::string& a, const std::string& b) {
    for (const char* f : kArchives)
      EXPECT_TRUE(test::read_file(a + "/" + f) == test::read_file(b + "/" + f)) << a << " and " << b << ": " << f;
  }
  // Every data file of each archive of `folder`, as `extract` writes them: name -> bytes.
  std::map<std::string, std::vector<u8>> data_files(const std::string& folder, const std::string& tag) {
    std::map<std::string, std::vector<u8>> out;
    for (const char* a : kArchives) {
      const std::string x = dir_.path("x-" + tag + "-" + a);
      EXPECT_EQ(test::run_cli({"extract", folder + "/" + a, "-o", x, "-q"}).exit_code, 0);
      for (const auto& e : fs::directory_iterator(platform::path_of(x)))
        if (e.path().extension() == ".data")
          out[std::string(a) + "/" + platform::utf8_of(e.path().filename())] =
              test::read_file(platform::utf8_of(e.path()));
    }
    return out;
  }

  test::TempDir dir_;
  std::map<std::string, std::map<std::string, std::vector<std::string>>> keys_;
  std::string agreed_, conflict_, conflict_key_;
  std::vector<std::string> alpha_ops_, beta_ops_, gamma_ops_;
};

TEST_P(ModFolder, CheckReportsExactlyThePlantedConflict) {
  const std::string g = game("g");
  test::CliResult r = test::run_cli({"mod", "check", g, mod("alpha"), mod("beta"), mod("gamma")});
  EXPECT_EQ(r.exit_code, 1) << r.err;
  EXPECT_THAT(r.out, HasSubstr("conflict: beta and gamma write " + conflict_ + ": beta leaves 5, gamma leaves 6"));
  std::size_t conflicts = 0;
  for (std::size_t at = r.out.find("conflict:"); at != std::string::npos; at = r.out.find("conflict:", at + 1))
    ++conflicts;
  EXPECT_EQ(conflicts, 1u) << r.out;
  EXPECT_THAT(r.out, Not(HasSubstr("fails:")));
  EXPECT_THAT(r.out, HasSubstr("mod alpha: 2 fields in 2 archives (a1.forge, a2.forge)"));
  // --json: the same conflict, for tools.
  test::CliResult j = test::run_cli({"mod", "check", "--json", g, mod("alpha"), mod("beta"), mod("gamma")});
  rapidjson::Document doc;
  doc.Parse(j.out.c_str());
  ASSERT_FALSE(doc.HasParseError()) << j.out;
  ASSERT_EQ(doc["conflicts"].Size(), 1u);
  EXPECT_EQ(std::string(doc["conflicts"][0]["pointer"].GetString()), conflict_);
  EXPECT_EQ(doc["conflicts"][0]["earlier_value"].GetInt(), 5);
  EXPECT_EQ(doc["conflicts"][0]["later_value"].GetInt(), 6);
  // Without gamma: clean. Nothing was written.
  EXPECT_EQ(test::run_cli({"mod", "check", g, mod("alpha"), mod("beta")}).exit_code, 0);
  EXPECT_FALSE(fs::exists(g + "/.anvilrt/mods"));
  expect_same_archives(g, dir_.path("orig"));
}

TEST_P(ModFolder, CheckNamesFailingOperations) {
  const std::string g = game("g");
  write(dir_.path("bad.json"),
        "[" + test_op(agreed_, 99) + ", " + replace_op("/objects/0x0123456789abcdef/active", 1) + "]");
  test::CliResult r = test::run_cli({"mod", "check", g, mod("alpha"), dir_.path("bad.json")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_THAT(r.out, HasSubstr("fails: op 0 (" + agreed_ + ")"));
  EXPECT_THAT(r.out, HasSubstr("fails: op 1 (/objects/0x0123456789abcdef/active)"));
}

TEST_P(ModFolder, ListSaysVersionAuthorAndTheWritesLostToALaterMod) {
  const std::string g = game("g");
  test::CliResult none = test::run_cli({"mod", "list", g});
  EXPECT_EQ(none.exit_code, 0) << none.err;
  EXPECT_EQ(none.out, "no mods installed\n");
  ASSERT_EQ(
      test::run_cli({"mod", "install", g, mod("alpha"), mod("beta"), mod("gamma"), "--allow-overrides"}).exit_code, 0);
  test::CliResult list = test::run_cli({"mod", "list", g});
  EXPECT_THAT(list.out, HasSubstr("mod alpha 1.0 by a (installed): "));
  EXPECT_THAT(list.out, HasSubstr("mod beta (installed): "));
  EXPECT_THAT(list.out, HasSubstr("  lost to gamma: " + conflict_ + " (gamma leaves 6)\n"));
  EXPECT_EQ(list.out.find("lost to"), list.out.rfind("lost to")) << list.out;  // beta's one write, no other
  EXPECT_LT(list.out.find("mod beta"), list.out.find("lost to gamma"));
  EXPECT_LT(list.out.find("lost to gamma"), list.out.find("mod gamma"));
  rapidjson::Document doc;
  doc.Parse(test::run_cli({"mod", "list", "--json", g}).out.c_str());
  ASSERT_FALSE(doc.HasParseError());
  const auto& mods = doc["mods"];
  ASSERT_EQ(mods.Size(), 3u);
  EXPECT_EQ(std::string(mods[0]["version"].GetString()), "1.0");
  EXPECT_EQ(std::string(mods[0]["author"].GetString()), "a");
  EXPECT_TRUE(mods[1]["version"].IsNull());
  EXPECT_EQ(mods[0]["lost"].Size(), 0u);
  ASSERT_EQ(mods[1]["lost"].Size(), 1u);
  EXPECT_EQ(std::string(mods[1]["lost"][0]["later"].GetString()), "gamma");
  EXPECT_EQ(std::string(mods[1]["lost"][0]["pointer"].GetString()), conflict_);
  EXPECT_EQ(mods[1]["lost"][0]["later_value"].GetInt(), 6);
  EXPECT_EQ(mods[2]["lost"].Size(), 0u);
}

TEST_P(ModFolder, ErrorsSayWhatFailedAndWhy) {
  const std::string g = game("g");
  test::CliResult missing = test::run_cli({"mod", "check", g, dir_.path("nothing.json")});
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_THAT(missing.err, HasSubstr("nothing.json: cannot read the mod: "));
  if (!test::on_windows()) {
    EXPECT_THAT(missing.err, HasSubstr("No such file or directory"));
  }
  // A bulk operation that fails is named by its name, as a path names the others.
  write(dir_.path("bulk.json"),
        "[{\"op\": \"swap_material\", \"from\": \"0x3333333333333333\", "
        "\"to\": \"0x4444444444444444\"}]");
  test::CliResult bulk = test::run_cli({"mod", "check", g, dir_.path("bulk.json")});
  EXPECT_THAT(bulk.out + bulk.err, HasSubstr("op 0 (swap_material)"));
  EXPECT_FALSE(fs::exists(g + "/.anvilrt")) << "a check wrote into the folder";
  // A malformed operation is bad input (exit 2), as `patch` takes it; one that fails here is the mod's failure.
  write(dir_.path("malformed.json"),
        "[" + replace_op(agreed_, 3) + ", {\"op\": \"replace\", \"path\": \"" + agreed_ + "\"}]");
  for (const char* command : {"check", "install"}) {
    test::CliResult malformed = test::run_cli({"mod", command, g, dir_.path("malformed.json")});
    EXPECT_EQ(malformed.exit_code, 2) << command << ": " << malformed.out << malformed.err;
    EXPECT_THAT(malformed.err, HasSubstr("malformed.json: op 1 (" + agreed_ + "): missing \"value\"")) << command;
  }
  EXPECT_EQ(test::run_cli({"patch", g, dir_.path("malformed.json"), "--dry-run"}).exit_code, 2);
  // A mod made for the other game is refused, naming both.
  const std::string other = GetParam() == "ac2" ? "sws" : "ac2";
  write(dir_.path("other.json"),
        "{\"anvilrt_mod\": 1, \"name\": \"other\", \"game\": \"" + other + "\", \"patch\": " + array(alpha_ops_) + "}");
  test::CliResult wrong = test::run_cli({"mod", "install", g, dir_.path("other.json")});
  EXPECT_EQ(wrong.exit_code, 2);
  EXPECT_THAT(wrong.err, HasSubstr("other.json: made for the game " + other + "; the game folder " + g + " holds " +
                                   GetParam() + " (a1.forge)"));
  test::CliResult typo = test::run_cli({"mod", "isntall", g, mod("alpha")});
  EXPECT_EQ(typo.exit_code, 2);
  EXPECT_THAT(typo.err, HasSubstr("unknown subcommand 'isntall' (did you mean 'install'?)"));
  // A folder that holds no archive is refused, and nothing is made in it.
  const std::string empty = dir_.path("empty");
  fs::create_directory(empty);
  for (const std::vector<std::string>& args : {std::vector<std::string>{"mod", "install", empty, mod("alpha")},
                                               std::vector<std::string>{"mod", "uninstall", empty, "alpha"},
                                               std::vector<std::string>{"mod", "recover", empty}}) {
    test::CliResult r = test::run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args[1];
    EXPECT_THAT(r.err, HasSubstr(": holds no .forge archive")) << args[1];
    EXPECT_TRUE(fs::is_empty(empty)) << args[1] << " left something in a folder that holds no archive";
  }
}

// `patch` and `map --patch` take a mod document where they take a patch: its operations, exactly.
TEST_P(ModFolder, AModDocumentIsTakenWhereverAPatchIs) {
  const std::string g = game("g");
  write(dir_.path("alpha-ops.json"), array(alpha_ops_));
  test::CliResult as_patch = test::run_cli({"patch", g, dir_.path("alpha-ops.json"), "--dry-run"});
  ASSERT_EQ(as_patch.exit_code, 0) << as_patch.err;
  test::CliResult as_mod = test::run_cli({"patch", g, mod("alpha"), "--dry-run"});
  ASSERT_EQ(as_mod.exit_code, 0) << as_mod.err;
  EXPECT_EQ(as_mod.out, as_patch.out);
  for (const std::string& p : {dir_.path("alpha-ops.json"), mod("alpha")})
    ASSERT_EQ(test::run_cli({"map", g, "--patch", p, "-o", p + ".svg", "-q"}).exit_code, 0) << p;
  EXPECT_EQ(test::read_file(mod("alpha") + ".svg"), test::read_file(dir_.path("alpha-ops.json") + ".svg"));
  // A mod document's own faults are named as `mod` names them.
  write(dir_.path("unnamed.json"), "{\"anvilrt_mod\": 1, \"patch\": []}");
  test::CliResult unnamed = test::run_cli({"patch", g, dir_.path("unnamed.json"), "--dry-run"});
  EXPECT_EQ(unnamed.exit_code, 2);
  EXPECT_THAT(unnamed.err, HasSubstr("unnamed.json: member 'name': missing (required)"));
}

TEST_P(ModFolder, InstallEqualsPatchOfTheModsInOrder) {
  const std::string g = game("g");
  test::CliResult refused = test::run_cli({"mod", "install", g, mod("alpha"), mod("beta"), mod("gamma")});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_THAT(refused.out, HasSubstr("conflict: beta and gamma"));
  expect_same_archives(g, dir_.path("orig"));
  test::CliResult r =
      test::run_cli({"mod", "install", g, mod("alpha"), mod("beta"), mod("gamma"), "--allow-overrides"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("override: gamma wins over beta at " + conflict_ + " (6, was 5)"));
  // The same operations through `anvilrt patch DIR`, one mod after the other.
  const std::string ref = game("ref");
  int n = 0;
  for (const auto* ops : {&alpha_ops_, &beta_ops_, &gamma_ops_}) {
    const std::string file = dir_.path("p" + std::to_string(n++) + ".json");
    write(file, array(*ops));
    test::CliResult p = test::run_cli({"patch", ref, file, "--in-place", "-q"});
    ASSERT_EQ(p.exit_code, 0) << p.err;
  }
  auto installed = data_files(g, "installed");
  EXPECT_EQ(installed, data_files(ref, "patched"));
  EXPECT_EQ(installed.size(), 9u);
  // The second reader agrees with anvilrt on every data file of the installed archives (a Python script
  // of this machine, which the Windows build under Wine cannot start: Wine.SameAsLinux compares there).
  for (const char* a : test::on_windows() ? std::vector<const char*>{}
                                          : std::vector<const char*>(std::begin(kArchives), std::end(kArchives))) {
    const std::string x = dir_.path(std::string("second-") + a);
    const std::string command = "/usr/bin/python3 '" + test::corpus("../tests/forge_second_reader.py") + "' extract '" +
                                g + "/" + a + "' '" + x + "' >/dev/null";
    ASSERT_EQ(std::system(command.c_str()), 0) << a;
    for (const auto& e : fs::directory_iterator(platform::path_of(x)))
      EXPECT_EQ(test::read_file(platform::utf8_of(e.path())),
                installed[std::string(a) + "/" + platform::utf8_of(e.path().filename())])
          << a << " " << platform::utf8_of(e.path().filename());
  }
  test::CliResult list = test::run_cli({"mod", "list", g});
  EXPECT_THAT(list.out, HasSubstr("mod alpha 1.0 by a (installed)"));
  EXPECT_LT(list.out.find("mod alpha"), list.out.find("mod beta"));
  EXPECT_LT(list.out.find("mod beta"), list.out.find("mod gamma"));
}

TEST_P(ModFolder, UninstallingTheMiddleEqualsInstallingTheOtherTwo) {
  const std::string g = game("g"), two = game("two");
  ASSERT_EQ(
      test::run_cli({"mod", "install", g, mod("alpha"), mod("beta"), mod("gamma"), "--allow-overrides"}).exit_code, 0);
  test::CliResult r = test::run_cli({"mod", "uninstall", g, "beta"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(test::run_cli({"mod", "install", two, mod("alpha"), mod("gamma")}).exit_code, 0);
  expect_same_archives(g, two);
  test::CliResult list = test::run_cli({"mod", "list", g});
  EXPECT_THAT(list.out, Not(HasSubstr("mod beta")));
  EXPECT_THAT(list.out, HasSubstr("mod gamma"));
}

TEST_P(ModFolder, UninstallingEveryModGivesTheOriginalBytes) {
  const std::string g = game("g");
  ASSERT_EQ(test::run_cli({"mod", "install", g, mod("alpha")}).exit_code, 0);
  ASSERT_EQ(test::run_cli({"mod", "install", g, mod("beta"), mod("gamma"), "--allow-overrides"}).exit_code, 0);
  // The undo data: at most the stored bytes of the data files mods changed, plus their table entries.
  std::uintmax_t undo = 0;
  for (const auto& e : fs::directory_iterator(g + "/.anvilrt/mods/undo")) undo += fs::file_size(e.path());
  EXPECT_GT(undo, 0u);
  EXPECT_LT(undo, fs::file_size(g + "/a1.forge") + fs::file_size(g + "/a2.forge"));
  // beta tests the value alpha writes: alpha cannot go while beta stays, and nothing changes.
  const test::FolderSnapshot installed = test::snapshot_folder(g);
  test::CliResult refused = test::run_cli({"mod", "uninstall", g, "alpha"});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_THAT(refused.out, HasSubstr("fails: op 0 (" + agreed_ + ")"));
  EXPECT_EQ(test::snapshot_folder(g), installed);
  test::CliResult r = test::run_cli({"mod", "uninstall", g, "beta"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(test::run_cli({"mod", "uninstall", g, "gamma", "alpha"}).exit_code, 0);
  expect_same_archives(g, dir_.path("orig"));
  EXPECT_FALSE(fs::exists(g + "/.anvilrt/mods/undo/a1.forge.undo"));
  EXPECT_EQ(test::run_cli({"mod", "list", "--json", g}).out.find("\"name\""), std::string::npos);
}

TEST_P(ModFolder, MergeInstallsAsTheModsInOrder) {
  const std::string g = game("g"), merged = game("merged");
  ASSERT_EQ(
      test::run_cli({"mod", "merge", mod("alpha"), mod("beta"), mod("gamma"), "-o", dir_.path("all.json")}).exit_code,
      0);
  ASSERT_EQ(
      test::run_cli({"mod", "install", g, mod("alpha"), mod("beta"), mod("gamma"), "--allow-overrides"}).exit_code, 0);
  test::CliResult r = test::run_cli({"mod", "install", merged, dir_.path("all.json")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_same_archives(g, merged);
  EXPECT_THAT(test::run_cli({"mod", "list", merged}).out, HasSubstr("mod all (installed)"));
}

TEST_P(ModFolder, AnArchiveChangedBehindOurBackIsLeftAlone) {
  const std::string g = game("g");
  ASSERT_EQ(test::run_cli({"mod", "install", g, mod("alpha")}).exit_code, 0);
  // A game update: the archive rewritten (here, its original bytes again).
  fs::remove(g + "/a1.forge");
  fs::copy_file(orig("a1.forge"), g + "/a1.forge");
  const std::string listed = test::run_cli({"mod", "list", g}).out;
  EXPECT_THAT(listed, HasSubstr("archive a1.forge: changed since anvilrt last wrote it"));
  EXPECT_THAT(listed, HasSubstr("`anvilrt mod forget " + g + " a1.forge`"));  // the folder's name, not DIR
  test::CliResult refused = test::run_cli({"mod", "uninstall", g, "alpha"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_THAT(refused.err, HasSubstr("a1.forge changed since anvilrt last wrote it"));
  ASSERT_EQ(test::run_cli({"mod", "forget", g, "a1.forge"}).exit_code, 0);
  ASSERT_EQ(test::run_cli({"mod", "uninstall", g, "alpha"}).exit_code, 0);
  expect_same_archives(g, dir_.path("orig"));
}

// A change that keeps the file's size and modification time (written in place, the time set back): the
// stamp cannot see it, the content can, and install and uninstall read the content before writing.
TEST_P(ModFolder, AChangeThatKeepsTheStampIsSeenByTheContent) {
  const std::string g = game("g");
  ASSERT_EQ(test::run_cli({"mod", "install", g, mod("alpha")}).exit_code, 0);
  const std::string a1 = g + "/a1.forge";
  const auto time = fs::last_write_time(a1);
  // A field of a plain data file changed (same size), written over the file in place.
  write(dir_.path("update.json"), array({replace_op("/objects/" + key("a1.forge", "DataFile_002") + "/managed", 7)}));
  ASSERT_EQ(test::run_cli({"patch", a1, dir_.path("update.json"), "-o", dir_.path("updated.forge")}).exit_code, 0);
  const std::vector<u8> updated = test::read_file(dir_.path("updated.forge"));
  ASSERT_EQ(updated.size(), fs::file_size(a1));
  ASSERT_FALSE(updated == test::read_file(a1));
  std::ofstream(a1, std::ios::binary | std::ios::in | std::ios::out)
      .write(reinterpret_cast<const char*>(updated.data()), static_cast<std::streamsize>(updated.size()));
  fs::last_write_time(a1, time);
  test::CliResult refused = test::run_cli({"mod", "uninstall", g, "alpha"});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_THAT(refused.err, HasSubstr("a1.forge changed since anvilrt last wrote it"));
  refused = test::run_cli({"mod", "install", g, mod("beta")});
  EXPECT_EQ(refused.exit_code, 2);
  EXPECT_THAT(refused.err, HasSubstr("a1.forge: changed since anvilrt last wrote it"));
}

// A new modification time on the bytes anvilrt wrote (a copy, a `touch`) is not a change: the content is
// read, found the same, and the mods uninstall as if nothing happened.
TEST_P(ModFolder, ANewTimeOnTheSameBytesIsNoChange) {
  const std::string g = game("g");
  ASSERT_EQ(test::run_cli({"mod", "install", g, mod("alpha")}).exit_code, 0);
  const std::string a1 = g + "/a1.forge";
  fs::last_write_time(a1, fs::last_write_time(a1) + std::chrono::hours(1));
  EXPECT_THAT(test::run_cli({"mod", "list", g}).out, Not(HasSubstr("changed since")));
  test::CliResult r = test::run_cli({"mod", "uninstall", g, "alpha"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  expect_same_archives(g, dir_.path("orig"));
}

TEST_P(ModFolder, MadeForAnotherArchiveIsWarnedAbout) {
  const std::string g = game("g");
  write(dir_.path("old.json"), "{\"anvilrt_mod\": 1, \"name\": \"old\", \"made_for\": {\"a1.forge\": \"" +
                                   std::string(64, '0') + "\"}, \"patch\": [" + replace_op(agreed_, 9) + "]}");
  test::CliResult r = test::run_cli({"mod", "install", g, dir_.path("old.json")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr("warning: mod old: made for a1.forge with sha256 000"));
}

// Killed at every step of an install of three mods, and of their uninstall, then recovered: every archive
// is entirely as before or entirely as after, and the folder verifies.
TEST_P(ModFolder, InstallAndUninstallSurviveACrashAtEveryStep) {
  const std::string g = game("g");
  const std::vector<std::string> install = {"mod",        "install",           g,   mod("alpha"), mod("beta"),
                                            mod("gamma"), "--allow-overrides", "-q"};
  test::CrashSweep sweep;
  sweep.dir = g;
  sweep.command = install;
  sweep.recover = {"mod", "recover", g};
  sweep.before = test::snapshot_folder(g);
  ASSERT_EQ(test::run_cli(install).exit_code, 0);
  sweep.after = test::snapshot_folder(g);
  test::CrashSweepResult installed = test::run_crash_sweep(sweep);
  EXPECT_GT(installed.ended_before, 0);
  EXPECT_GT(installed.ended_after, 0);
  // The uninstall of the three, from the installed folder (made again before each run).
  const test::FolderSnapshot original = sweep.before;
  test::CrashSweep undo;
  undo.dir = g;
  undo.command = {"mod", "uninstall", g, "alpha", "beta", "gamma", "-q"};
  undo.recover = {"mod", "recover", g};
  undo.before = sweep.after;
  undo.after = original;
  undo.prepare = [&] {
    test::restore_folder(g, original);
    ASSERT_EQ(test::run_cli(install).exit_code, 0);
  };
  test::CrashSweepResult uninstalled = test::run_crash_sweep(undo);
  EXPECT_GT(uninstalled.ended_before, 0);
  EXPECT_GT(uninstalled.ended_after, 0);
  // Whatever the last run left, list and the archives agree: no mod is left.
  EXPECT_EQ(test::run_cli({"mod", "list", "--json", g}).out.find("\"name\""), std::string::npos);
}

INSTANTIATE_TEST_SUITE_P(BothGames, ModFolder, ::testing::Values("ac2", "sws"));

TEST(ModDocument, ErrorsNameTheFileAndTheMember) {
  test::TempDir dir;
  std::ofstream(dir.path("m.json")) << R"({"anvilrt_mod": 1, "name": "m", "patch": [], "colour": "red"})";
  test::CliResult r = test::run_cli({"mod", "merge", dir.path("m.json"), "-o", dir.path("out.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(dir.path("m.json") + ": unknown member 'colour'"));
  std::ofstream(dir.path("n.json")) << R"({"anvilrt_mod": 1, "patch": []})";
  EXPECT_THAT(test::run_cli({"mod", "merge", dir.path("n.json"), "-o", dir.path("out.json")}).err,
              HasSubstr(dir.path("n.json") + ": member 'name': missing (required)"));
  std::ofstream(dir.path("h.json")) << R"({"anvilrt_mod": 1, "name": "h", "made_for": {"a.forge": "12"}, "patch": []})";
  EXPECT_THAT(test::run_cli({"mod", "merge", dir.path("h.json"), "-o", dir.path("out.json")}).err,
              HasSubstr(dir.path("h.json") + ": member 'made_for/a.forge': must be a sha256 hash"));
  // A member named twice in one object, here inside an operation (the fuzz target's first find).
  std::ofstream(dir.path("d.json")) << R"({"anvilrt_mod":1,"name":"d","patch":[{"":"","":0}]})";
  EXPECT_THAT(test::run_cli({"mod", "merge", dir.path("d.json"), "-o", dir.path("out.json")}).err,
              HasSubstr(dir.path("d.json") + ": member \"\" given twice in one object"));
  EXPECT_FALSE(fs::exists(dir.path("out.json")));
}

}  // namespace
}  // namespace anvil

namespace anvil {
namespace {

// docs/mods.md's worked example (between "<!-- mods-example -->" and "<!-- /mods-example -->"), run by
// bash -euo pipefail as written.
TEST(ModsDoc, RunsAsWritten) {
  SKIP_ON_WINDOWS(
      "runs docs/mods.md's sh block with bash, which Windows lacks (the ModFolder tests run the same commands on "
      "Windows)");
  const std::string doc = test::read_text(test::corpus("../docs/mods.md"));
  const std::string open = "<!-- mods-example -->\n```sh\n", close = "```\n<!-- /mods-example -->";
  const std::size_t begin = doc.find(open), end = doc.find(close);
  ASSERT_NE(begin, std::string::npos);
  ASSERT_NE(end, std::string::npos);
  test::TempDir dir;
  { std::ofstream(dir.path("example.sh")) << doc.substr(begin + open.size(), end - begin - open.size()); }
  const std::string bin = std::filesystem::path(ANVILRT_BINARY).parent_path().string();
  const std::string command =
      "cd '" + dir.path("") + "' && PATH='" + bin + "':\"$PATH\" bash -euo pipefail example.sh >log 2>&1";
  ASSERT_EQ(std::system(command.c_str()), 0) << test::read_text(dir.path("log"));
  const std::string log = test::read_text(dir.path("log"));
  EXPECT_THAT(log, HasSubstr("conflict: brighter and quiet write "
                             "/archives/levels.forge/datafiles/DataFile_000/objects/0xa7f13e8d804b9c06/managed: "
                             "brighter leaves 3, quiet leaves 5"));
  EXPECT_THAT(log, HasSubstr("check: exit 1"));
  EXPECT_THAT(log, HasSubstr("install: exit 1"));
  EXPECT_THAT(log, HasSubstr("override: quiet wins over brighter"));
  EXPECT_EQ(test::read_file(dir.path("game/levels.forge")), test::read_file(dir.path("levels.original")));
}

}  // namespace
}  // namespace anvil
