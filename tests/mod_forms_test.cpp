// Mods in the forms that exist (docs/mods.md, Mod packages), through the binary: whole data files in
// AnvilToolkit's layout (Extracted/ARCHIVE.forge/NAME.data, decompressed as `extract` writes them or stored
// as the archive holds them), whole archives, in a folder or a .zip, merged with each other and with patch
// mods by what they change, and uninstalled to the original bytes.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "model/forge/archive.hpp"
#include "reader/forge/archive_reader.hpp"
#include "tests/game_folder_support.hpp"
#include "tests/test_support.hpp"

namespace anvil::mod_forms {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

const std::vector<std::string> kArchives = {"a1.forge", "a2.forge"};

// The field in a patch of a1.forge alone, and in a patch of the game folder.
std::string object_pointer(const std::string& key, const std::string& field) {
  return "/datafiles/DataFile_000/objects/" + key + "/" + field;
}
std::string field_pointer(const std::string& key, const std::string& field) {
  return "/archives/a1.forge" + object_pointer(key, field);
}

std::string replace_op(const std::string& path, int value) {
  return "{\"op\": \"replace\", \"path\": \"" + path + "\", \"value\": " + std::to_string(value) + "}";
}

std::string replace_json(const std::string& path, int value) { return "[" + replace_op(path, value) + "]"; }

void write_text(const std::string& path, const std::string& text) {
  fs::create_directories(fs::path(path).parent_path());
  std::ofstream(path, std::ios::binary) << text;
}

// A generated game folder (two archives of three data files each) and the mods made from it the way modders
// make them: an archive edited by a tool, then its data file extracted, or the whole archive shipped.
class ModForms : public ::testing::Test {
 protected:
  void SetUp() override {
    test::generate_game_folder(dir_.path("orig"), "ac2", kArchives, {1, 2}, 3, 3);
    original_ = test::snapshot_folder(dir_.path("orig"));
    for (const auto& [datafile, keys] : test::archive_keys(dir_.path("orig/a1.forge")))
      if (datafile == "DataFile_000") keys_ = keys;
    ASSERT_GE(keys_.size(), 3u);
  }

  std::string game(const std::string& name) {
    const std::string path = dir_.path(name);
    fs::create_directory(path);
    for (const std::string& a : kArchives) fs::copy_file(dir_.path("orig/" + a), path + "/" + a);
    return path;
  }

  // a1.forge with `patch_json` applied, as an editing tool leaves it.
  std::string edited_archive(const std::string& tag, const std::string& patch_json) {
    const std::string out = dir_.path("edit-" + tag + ".forge");
    write_text(dir_.path("edit-" + tag + ".json"), patch_json);
    EXPECT_EQ(test::run_cli({"patch", dir_.path("orig/a1.forge"), dir_.path("edit-" + tag + ".json"), "-o", out, "-q"})
                  .exit_code,
              0);
    return out;
  }

  // A package folder holding DataFile_000 of an edited a1.forge, decompressed (as `extract` writes it).
  std::string data_file_mod(const std::string& tag, const std::string& patch_json) {
    const std::string archive = edited_archive(tag, patch_json);
    const std::string x = dir_.path("x-" + tag);
    EXPECT_EQ(test::run_cli({"extract", archive, "DataFile_000", "-o", x, "-q"}).exit_code, 0);
    const std::string package = dir_.path(tag);
    test::write_file(package + "/Extracted/a1.forge/DataFile_000.data", test::read_file(x + "/DataFile_000.data"));
    return package;
  }

  // The stored bytes of data file `name` of an archive, as the archive holds them (FORGE.md 1).
  static std::vector<u8> stored_bytes(const std::string& archive_path, const std::string& name) {
    const std::vector<u8> bytes = test::read_file(archive_path);
    auto archive = forge::read_archive(bytes);
    EXPECT_TRUE(archive.ok()) << archive.status();
    const std::vector<std::string> names = forge::data_file_names(*archive);
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) {
        const forge::DataFileAt& f = archive->files[i];
        return {bytes.begin() + static_cast<std::ptrdiff_t>(f.stored_offset()),
                bytes.begin() + static_cast<std::ptrdiff_t>(f.stored_offset() + f.index.size)};
      }
    ADD_FAILURE() << name << " not in " << archive_path;
    return {};
  }

  std::string field(const std::string& dir, const std::string& key, const std::string& f) {
    return test::object_field(dir + "/a1.forge", key, f);
  }

  test::TempDir dir_;
  test::FolderSnapshot original_;
  std::vector<std::string> keys_;
};

// The worked example of docs/mods.md: two mods that ship the same data file, changing different objects,
// merge; a patch mod on a third object of it sits beside them; all uninstalled give the original bytes.
TEST_F(ModForms, TwoDataFileModsOfOneDataFileMergeByWhatTheyChange) {
  const std::string a = data_file_mod("brighter", replace_json(object_pointer(keys_[0], "managed"), 7));
  const std::string b = data_file_mod("further", replace_json(object_pointer(keys_[1], "managed"), 9));
  const std::string c = dir_.path("third.json");
  write_text(c, replace_json(field_pointer(keys_[2], "managed"), 11));
  const std::string g = game("g");
  test::CliResult check = test::run_cli({"mod", "check", g, a, b, c});
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  EXPECT_THAT(check.out, HasSubstr("mod brighter: 1 field"));
  EXPECT_THAT(check.out, HasSubstr("mod further: 1 field"));
  test::CliResult install = test::run_cli({"mod", "install", g, a, b, c});
  ASSERT_EQ(install.exit_code, 0) << install.out << install.err;
  EXPECT_EQ(field(g, keys_[0], "managed"), "7");
  EXPECT_EQ(field(g, keys_[1], "managed"), "9");
  EXPECT_EQ(field(g, keys_[2], "managed"), "11");
  // The same bytes as the three changes made by `patch` in one run.
  const std::string ref = game("ref");
  write_text(dir_.path("all.json"), "[" + replace_op(field_pointer(keys_[0], "managed"), 7) + ", " +
                                        replace_op(field_pointer(keys_[1], "managed"), 9) + ", " +
                                        replace_op(field_pointer(keys_[2], "managed"), 11) + "]");
  test::CliResult all = test::run_cli({"patch", ref, dir_.path("all.json"), "--in-place", "-q"});
  ASSERT_EQ(all.exit_code, 0) << all.err;
  EXPECT_TRUE(test::snapshot_folder(g) == test::snapshot_folder(ref));
  // Uninstalling one leaves the others in effect; uninstalling all gives the original bytes.
  ASSERT_EQ(test::run_cli({"mod", "uninstall", g, "brighter"}).exit_code, 0);
  EXPECT_EQ(field(g, keys_[0], "managed"), field(dir_.path("orig"), keys_[0], "managed"));
  EXPECT_EQ(field(g, keys_[1], "managed"), "9");
  ASSERT_EQ(test::run_cli({"mod", "uninstall", g, "further", "third"}).exit_code, 0);
  EXPECT_TRUE(test::snapshot_folder(g) == original_);
}

TEST_F(ModForms, TheSameFieldLeftTwoValuesIsAConflictNamingFieldAndMods) {
  const std::string a = data_file_mod("red", replace_json(object_pointer(keys_[0], "managed"), 7));
  const std::string b = data_file_mod("blue", replace_json(object_pointer(keys_[0], "managed"), 8));
  const std::string g = game("g");
  test::CliResult check = test::run_cli({"mod", "check", g, a, b});
  EXPECT_EQ(check.exit_code, 1);
  EXPECT_THAT(check.out, HasSubstr("conflict: red and blue write " + field_pointer(keys_[0], "managed") +
                                   ": red leaves 7, blue leaves 8"));
  test::CliResult refused = test::run_cli({"mod", "install", g, a, b});
  EXPECT_EQ(refused.exit_code, 1);
  EXPECT_TRUE(test::snapshot_folder(g) == original_);
  // merge refuses it too, naming it; --allow-overrides lets the later win, and says so.
  test::CliResult merge = test::run_cli({"mod", "merge", a, b, "-o", dir_.path("both.json"), "--onto", g});
  EXPECT_EQ(merge.exit_code, 1);
  EXPECT_THAT(merge.out, HasSubstr("conflict: red and blue"));
  EXPECT_FALSE(fs::exists(dir_.path("both.json")));
  test::CliResult merged =
      test::run_cli({"mod", "merge", a, b, "-o", dir_.path("both.json"), "--onto", g, "--allow-overrides"});
  EXPECT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_THAT(merged.out, HasSubstr("override: blue wins over red at " + field_pointer(keys_[0], "managed")));
  ASSERT_EQ(test::run_cli({"mod", "install", g, dir_.path("both.json")}).exit_code, 0);
  EXPECT_EQ(field(g, keys_[0], "managed"), "8");
}

// The stored form, the decompressed form, a .zip, AnvilToolkit's "<id>_-_<name>.data" and a whole archive
// all say the same thing: the same effect, the same bytes installed.
TEST_F(ModForms, EveryFormOfOneChangeInstallsTheSameBytes) {
  const std::string json = replace_json(object_pointer(keys_[0], "managed"), 5);
  const std::string decompressed = data_file_mod("plain", json);
  const std::string archive = edited_archive("whole", json);
  const std::string stored = dir_.path("stored");
  test::write_file(stored + "/Extracted/a1.forge/DataFile_000.data", stored_bytes(archive, "DataFile_000"));
  const std::string whole = dir_.path("whole");
  test::write_file(whole + "/a1.forge", test::read_file(archive));
  const std::string atk = dir_.path("atk");
  auto tables = forge::read_archive(test::read_file(dir_.path("orig/a1.forge")));
  ASSERT_TRUE(tables.ok());
  const std::string id = std::to_string(tables->files[0].index.file_id.value);
  test::write_file(atk + "/Extracted/a1.forge/" + id + "_-_DataFile_000.data",
                   test::read_file(decompressed + "/Extracted/a1.forge/DataFile_000.data"));
  // A .zip whose one top folder holds the package, with an anvilrt-mod.json naming it.
  write_text(dir_.path("zipped/named/anvilrt-mod.json"),
             R"({"name": "named", "version": "2.0", "author": "Ezio", "game": "ac2"})");
  test::write_file(dir_.path("zipped/named/Extracted/a1.forge/DataFile_000.data"),
                   test::read_file(decompressed + "/Extracted/a1.forge/DataFile_000.data"));
  // Zipped by Python's zipfile, a second writer than libarchive (which reads it); Windows' tests run no shell.
  std::vector<std::string> mods = {decompressed, stored, whole, atk};
  if (!test::on_windows()) {
    ASSERT_EQ(std::system(
                  ("cd '" + dir_.path("zipped") + "' && python3 -m zipfile -c ../named.zip named >/dev/null").c_str()),
              0);
    mods.push_back(dir_.path("named.zip"));
  }
  std::optional<test::FolderSnapshot> expected;
  for (const std::string& mod : mods) {
    const std::string g = game("g-" + fs::path(mod).filename().string());
    test::CliResult r = test::run_cli({"mod", "install", g, mod});
    ASSERT_EQ(r.exit_code, 0) << mod << ": " << r.out << r.err;
    EXPECT_EQ(field(g, keys_[0], "managed"), "5") << mod;
    const test::FolderSnapshot now = test::snapshot_folder(g);
    if (expected) {
      EXPECT_TRUE(now == *expected) << mod;
    }
    expected = now;
  }
  if (!test::on_windows()) {
    test::CliResult list = test::run_cli({"mod", "list", dir_.path("g-named.zip")});
    EXPECT_THAT(list.out, HasSubstr("mod named 2.0 by Ezio (installed)"));
  }
}

// A data-file mod is compared with the folder's original bytes, not with what mods installed since left.
TEST_F(ModForms, ADataFileModIsItsEffectOnTheOriginalWhateverIsInstalled) {
  const std::string g = game("g");
  const std::string first = dir_.path("first.json");
  write_text(first, replace_json(field_pointer(keys_[1], "managed"), 3));
  ASSERT_EQ(test::run_cli({"mod", "install", g, first}).exit_code, 0);
  const std::string a = data_file_mod("later", replace_json(object_pointer(keys_[0], "managed"), 4));
  test::CliResult r = test::run_cli({"mod", "install", g, a});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;  // it does not write keys_[1] back: no conflict
  EXPECT_EQ(field(g, keys_[1], "managed"), "3");
  EXPECT_EQ(field(g, keys_[0], "managed"), "4");
  ASSERT_EQ(test::run_cli({"mod", "uninstall", g, "first"}).exit_code, 0);
  EXPECT_EQ(field(g, keys_[0], "managed"), "4");
  ASSERT_EQ(test::run_cli({"mod", "uninstall", g, "later"}).exit_code, 0);
  EXPECT_TRUE(test::snapshot_folder(g) == original_);
  EXPECT_TRUE(fs::is_empty(g + "/.anvilrt/mods/undo"));
}

TEST_F(ModForms, WhatAPackageCannotCarryIsRefusedInOneLine) {
  const std::string g = game("g");
  const std::string a = data_file_mod("ok", replace_json(object_pointer(keys_[0], "managed"), 7));
  // A data file the archive has not.
  const std::string stray = dir_.path("stray");
  test::write_file(stray + "/Extracted/a1.forge/NoSuchFile.data",
                   test::read_file(a + "/Extracted/a1.forge/DataFile_000.data"));
  test::CliResult r = test::run_cli({"mod", "check", g, stray});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("member 'Extracted/a1.forge/NoSuchFile.data': a1.forge has no data file 'NoSuchFile'"));
  // Bytes that are no data file.
  const std::string junk = dir_.path("junk");
  write_text(junk + "/Extracted/a1.forge/DataFile_000.data", "not a data file");
  r = test::run_cli({"mod", "check", g, junk});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("neither a decompressed nor a stored data file"));
  // A package needs a folder to be compared with.
  r = test::run_cli({"mod", "merge", a, "-o", dir_.path("m.json")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr("name one (--onto DIR)"));
  EXPECT_TRUE(test::snapshot_folder(g) == original_);
}

// A data file that differs outside every object replaces only those bytes: the objects in it still change by
// field, merged with another mod's; two mods that leave those bytes different conflict there.
TEST_F(ModForms, BytesOutsideObjectsReplaceOnlyThoseBytes) {
  const std::string near = data_file_mod("near", replace_json(object_pointer(keys_[1], "managed"), 9));
  const std::string edited = data_file_mod("edited", replace_json(object_pointer(keys_[0], "managed"), 7));
  std::vector<u8> bytes = test::read_file(edited + "/Extracted/a1.forge/DataFile_000.data");
  bytes.back() ^= 0x01;  // the last body's last byte: generated objects leave padding after them
  const std::string far = dir_.path("far");
  test::write_file(far + "/Extracted/a1.forge/DataFile_000.data", bytes);
  const std::string g = game("g");
  test::CliResult check = test::run_cli({"mod", "check", g, far, near});
  EXPECT_EQ(check.exit_code, 0) << check.out << check.err;
  ASSERT_EQ(test::run_cli({"mod", "install", g, far, near}).exit_code, 0);
  EXPECT_EQ(field(g, keys_[0], "managed"), "7");
  EXPECT_EQ(field(g, keys_[1], "managed"), "9");
  ASSERT_EQ(test::run_cli({"extract", g + "/a1.forge", "DataFile_000", "-o", dir_.path("now"), "-q"}).exit_code, 0);
  const std::vector<u8> now = test::read_file(dir_.path("now/DataFile_000.data"));
  ASSERT_EQ(now.size(), bytes.size());
  EXPECT_EQ(now.back(), bytes.back());
  // A merged document carries no bytes: a package that replaces some is not merged.
  test::CliResult merge = test::run_cli({"mod", "merge", far, near, "-o", dir_.path("m.json"), "--onto", g});
  EXPECT_EQ(merge.exit_code, 2);
  EXPECT_THAT(merge.err, HasSubstr("a1.forge/DataFile_000 outside its objects, which a merged document cannot carry"));
  EXPECT_FALSE(fs::exists(dir_.path("m.json")));
  // Another mod that leaves those bytes otherwise conflicts with `far`, naming the data file's outside bytes.
  bytes.back() ^= 0x03;
  const std::string other = dir_.path("other");
  test::write_file(other + "/Extracted/a1.forge/DataFile_000.data", bytes);
  test::CliResult conflict = test::run_cli({"mod", "check", g, other});
  EXPECT_EQ(conflict.exit_code, 1);
  EXPECT_THAT(conflict.out,
              HasSubstr("conflict: far and other write /archives/a1.forge/datafiles/DataFile_000/outside"));
  // Uninstalling `near` keeps `far`'s bytes; uninstalling both gives the original, and drops the kept copy.
  ASSERT_EQ(test::run_cli({"mod", "uninstall", g, "near"}).exit_code, 0);
  EXPECT_EQ(field(g, keys_[0], "managed"), "7");
  EXPECT_EQ(field(g, keys_[1], "managed"), field(dir_.path("orig"), keys_[1], "managed"));
  ASSERT_EQ(test::run_cli({"mod", "uninstall", g, "far"}).exit_code, 0);
  EXPECT_TRUE(test::snapshot_folder(g) == original_);
  EXPECT_TRUE(fs::is_empty(g + "/.anvilrt/mods/data"));
}

// `mod sync` (the deploy step) takes packages as install does: a package is known by its digest, so that the
// same files are nothing to do, and the mods that stay keep what they replaced.
TEST_F(ModForms, SyncTakesPackagesAndKnowsThemByTheirFiles) {
  const std::string near = data_file_mod("near", replace_json(object_pointer(keys_[1], "managed"), 9));
  const std::string edited = data_file_mod("edited", replace_json(object_pointer(keys_[0], "managed"), 7));
  std::vector<u8> bytes = test::read_file(edited + "/Extracted/a1.forge/DataFile_000.data");
  bytes.back() ^= 0x01;
  const std::string far = dir_.path("far");
  test::write_file(far + "/Extracted/a1.forge/DataFile_000.data", bytes);
  const std::string g = game("g");
  test::CliResult both = test::run_cli({"mod", "sync", g, far, near});
  ASSERT_EQ(both.exit_code, 0) << both.out << both.err;
  const test::FolderSnapshot installed = test::snapshot_folder(g);
  test::CliResult again = test::run_cli({"mod", "sync", g, far, near});
  EXPECT_EQ(again.exit_code, 0);
  EXPECT_THAT(again.out, HasSubstr("nothing to do"));
  // `near` goes: `far` stays, with its bytes outside objects and its field.
  ASSERT_EQ(test::run_cli({"mod", "sync", g, far}).exit_code, 0);
  EXPECT_EQ(field(g, keys_[0], "managed"), "7");
  EXPECT_EQ(field(g, keys_[1], "managed"), field(dir_.path("orig"), keys_[1], "managed"));
  // Back to both, in the other order: no conflict between them, the same bytes as before.
  ASSERT_EQ(test::run_cli({"mod", "sync", g, near, far}).exit_code, 0);
  EXPECT_TRUE(test::snapshot_folder(g) == installed);
  ASSERT_EQ(test::run_cli({"mod", "sync", g}).exit_code, 0);
  EXPECT_TRUE(test::snapshot_folder(g) == original_);
  EXPECT_TRUE(fs::is_empty(g + "/.anvilrt/mods/data"));
}

TEST_F(ModForms, AKilledInstallOfAPackageIsAllBeforeOrAllAfter) {
  // A field by operation and bytes outside objects by a kept copy of the data file: both written at once.
  const std::string edited = data_file_mod("edited", replace_json(object_pointer(keys_[0], "managed"), 7));
  std::vector<u8> bytes = test::read_file(edited + "/Extracted/a1.forge/DataFile_000.data");
  bytes.back() ^= 0x01;
  const std::string a = dir_.path("pkg");
  test::write_file(a + "/Extracted/a1.forge/DataFile_000.data", bytes);
  const std::string g = game("g");
  test::CrashSweep sweep;
  sweep.dir = g;
  sweep.command = {"mod", "install", g, a, "-q"};
  sweep.recover = {"mod", "recover", g};
  sweep.before = test::snapshot_folder(g);
  ASSERT_EQ(test::run_cli(sweep.command).exit_code, 0);
  sweep.after = test::snapshot_folder(g);
  test::CrashSweepResult result = test::run_crash_sweep(sweep);
  EXPECT_GT(result.ended_before, 0);
  EXPECT_GT(result.ended_after, 0);
}

// A kill -9 at every step of a sync that takes one package out and puts another in (each with a kept data
// file) leaves every archive all-before or all-after.
TEST_F(ModForms, AKilledSyncOfPackagesIsAllBeforeOrAllAfter) {
  auto outside_mod = [&](const std::string& tag, const std::string& key, int value, u8 flip) {
    const std::string edited = data_file_mod(tag + "-edited", replace_json(object_pointer(key, "managed"), value));
    std::vector<u8> bytes = test::read_file(edited + "/Extracted/a1.forge/DataFile_000.data");
    bytes.back() ^= flip;
    test::write_file(dir_.path(tag) + "/Extracted/a1.forge/DataFile_000.data", bytes);
    return dir_.path(tag);
  };
  const std::string first = outside_mod("first", keys_[0], 7, 0x01);
  const std::string second = outside_mod("second", keys_[1], 9, 0x02);
  const std::string g = game("g");
  ASSERT_EQ(test::run_cli({"mod", "install", g, first, "-q"}).exit_code, 0);
  const test::FolderSnapshot with_first = test::snapshot_folder(g);
  const std::string state = dir_.path("state-first");
  fs::copy(g + "/.anvilrt", state, fs::copy_options::recursive);
  test::CrashSweep sweep;
  sweep.dir = g;
  sweep.command = {"mod", "sync", g, second, "-q"};
  sweep.recover = {"mod", "recover", g};
  sweep.before = with_first;
  sweep.prepare = [&] {
    fs::remove_all(g + "/.anvilrt");
    fs::copy(state, g + "/.anvilrt", fs::copy_options::recursive);
  };
  sweep.prepare();
  ASSERT_EQ(test::run_cli(sweep.command).exit_code, 0);
  sweep.after = test::snapshot_folder(g);
  EXPECT_FALSE(sweep.after == with_first);
  test::CrashSweepResult result = test::run_crash_sweep(sweep);
  EXPECT_GT(result.ended_before, 0);
  EXPECT_GT(result.ended_after, 0);
}

// docs/mods.md's second worked example (between "<!-- mods-packages-example -->" and its end), run by
// bash -euo pipefail as written: two data-file mods of one data file and a patch mod, installed together,
// uninstalled to the original bytes.
TEST(ModsDoc, PackagesRunAsWritten) {
  SKIP_ON_WINDOWS("runs docs/mods.md's sh block with bash, which Windows lacks (ModForms runs the same on Windows)");
  const std::string doc = test::read_text(test::corpus("../docs/mods.md"));
  const std::string open = "<!-- mods-packages-example -->\n```sh\n", close = "```\n<!-- /mods-packages-example -->";
  const std::size_t begin = doc.find(open), end = doc.find(close);
  ASSERT_NE(begin, std::string::npos);
  ASSERT_NE(end, std::string::npos);
  test::TempDir dir;
  { std::ofstream(dir.path("example.sh")) << doc.substr(begin + open.size(), end - begin - open.size()); }
  const std::string bin = fs::path(ANVILRT_BINARY).parent_path().string();
  // The uninstalls at its end are left out here, to look at the installed folder first.
  std::string script = test::read_text(dir.path("example.sh"));
  const std::size_t cut = script.find("anvilrt mod uninstall");
  ASSERT_NE(cut, std::string::npos);
  { std::ofstream(dir.path("install.sh")) << script.substr(0, cut); }
  const std::string run = "cd '" + dir.path("") + "' && PATH='" + bin + "':\"$PATH\" bash -euo pipefail ";
  ASSERT_EQ(std::system((run + "install.sh >log 2>&1").c_str()), 0) << test::read_text(dir.path("log"));
  const std::string log = test::read_text(dir.path("log"));
  EXPECT_THAT(log, ::testing::Not(HasSubstr("conflict")));
  EXPECT_THAT(log, HasSubstr("mod two 1.1 by Rosa (installed)"));
  const std::string levels = dir.path("game/levels.forge");
  EXPECT_EQ(test::object_field(levels, "0xa7f13e8d804b9c06", "managed"), "3");
  EXPECT_EQ(test::object_field(levels, "0xab0c4c916b906be1", "managed"), "4");
  EXPECT_EQ(test::object_field(levels, "0x56e09daa69fa2afa", "managed"), "5");
  // The whole example, from an empty folder again: its last line compares the original bytes.
  test::TempDir again;
  fs::copy_file(dir.path("example.sh"), again.path("example.sh"));
  const std::string all =
      "cd '" + again.path("") + "' && PATH='" + bin + "':\"$PATH\" bash -euo pipefail example.sh >log 2>&1";
  ASSERT_EQ(std::system(all.c_str()), 0) << test::read_text(again.path("log"));
  EXPECT_EQ(test::read_file(again.path("game/levels.forge")), test::read_file(again.path("levels.original")));
}

}  // namespace
}  // namespace anvil::mod_forms
