// The conventions every command follows (README: conventions), through the real binary: --version and
// help CMD, -q/-v, argument errors in the user's words, folder walks of level files, warnings for files
// that carve nothing, and missing or unreadable paths reported alike.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <random>
#include <regex>

#include "tests/test_support.hpp"

namespace anvil {
namespace {

using test::run_cli;
namespace fs = std::filesystem;

const char* const kCommands[] = {"verify", "dump", "build", "patch", "diff", "gen", "stats", "version"};

TEST(CliConventions, VersionNamesTheVersionTheCommitAndTheFormats) {
  auto a = run_cli({"--version"});
  auto b = run_cli({"version"});
  ASSERT_EQ(a.exit_code, 0);
  ASSERT_EQ(b.exit_code, 0);
  EXPECT_EQ(a.out, b.out);
  const std::string first = a.out.substr(0, a.out.find('\n'));
  // std::regex: GoogleTest's own regular expressions on Windows are a simple subset without brackets.
  EXPECT_TRUE(std::regex_match(first, std::regex(R"(anvilrt [0-9]+\.[0-9]+(\.[0-9]+)?( \(git [0-9a-f]{4,}.*\))?)")))
      << first;
  // Built from a git checkout (this one is, when the test runs from one): the commit is named.
  bool checkout = fs::exists(fs::path(ANVILRT_CORPUS).parent_path() / ".git");
  EXPECT_EQ(first.find(" (git ") != std::string::npos, checkout) << a.out;
  EXPECT_NE(a.out.find("ac2, sws"), std::string::npos) << a.out;
  EXPECT_NE(a.out.find("anvilrt/1"), std::string::npos) << a.out;
}

TEST(CliConventions, HelpCommandIsCommandHelpAndEveryCommandTakesQuietAndVerbose) {
  for (const char* command : kCommands) {
    auto help = run_cli({"help", command});
    auto dash = run_cli({command, "--help"});
    EXPECT_EQ(help.exit_code, 0) << command;
    EXPECT_EQ(help.out, dash.out) << command;
    EXPECT_NE(help.out.find("-q [ --quiet ]"), std::string::npos) << command << help.out;
    EXPECT_NE(help.out.find("-v [ --verbose ]"), std::string::npos) << command << help.out;
    EXPECT_EQ(help.out.find("--paths"), std::string::npos) << "positionals are not options: " << help.out;
  }
  auto unknown = run_cli({"help", "frobnicate"});
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_EQ(unknown.err, "anvilrt: unknown command 'frobnicate' (see anvilrt --help)\n");
  // Within two edits of one command: that command is suggested (a swap of two letters is one edit).
  EXPECT_EQ(run_cli({"verfiy", "x"}).err,
            "anvilrt: unknown command 'verfiy' (did you mean 'verify'?) (see anvilrt --help)\n");
}

struct BadCall {
  std::vector<std::string> args;
  std::string err;  // the whole of stderr
};

TEST(CliConventions, ArgumentErrorsNameTheUsersWords) {
  test::TempDir dir;
  const std::string f = test::corpus("ac2/direct_mesh.bin");
  const std::string patch_usage =
      " (usage: anvilrt patch FILE PATCH (-o OUT | --in-place | --dry-run) [--game ac2|sws|auto] [--jobs N] [-q] "
      "[-v])\n";
  const std::string dump_usage =
      " (usage: anvilrt dump FILE [NAME|0xID...] [--game ac2|sws|auto] [--full] [-o OUT] [-q] [-v])\n";
  const std::string verify_usage =
      " (usage: anvilrt verify PATH... [--game ac2|sws|auto] [--no-json] [--recompress] [--jobs N] [--all] [-q] "
      "[-v])\n";
  const std::string build_usage = " (usage: anvilrt build DUMP.json -o FILE [-q] [-v])\n";
  const std::string diff_usage = " (usage: anvilrt diff A B [--json] [--game ac2|sws|auto] [-q] [-v])\n";
  const std::string stats_usage =
      " (usage: anvilrt stats PATH... [--game ac2|sws|auto] [--json] [--jobs N] [--all] [-q] [-v])\n";
  const std::string gen_usage =
      " (usage: anvilrt gen --game ac2|sws --visuals N [--seed S] -o FILE [--selectors M] [--near-misses K] [-q] "
      "[-v])\n";
  const std::string out = dir.path("out.bin");
  const std::vector<BadCall> calls = {
      // missing arguments
      {{"patch"}, "anvilrt: missing FILE" + patch_usage},
      {{"patch", f}, "anvilrt: missing PATCH" + patch_usage},
      {{"dump"}, "anvilrt: missing FILE" + dump_usage},
      {{"verify"}, "anvilrt: missing PATH" + verify_usage},
      {{"stats", "--json"}, "anvilrt: missing PATH" + stats_usage},
      {{"diff", f}, "anvilrt: missing B" + diff_usage},
      {{"build", "-o", out}, "anvilrt: missing DUMP.json" + build_usage},
      {{"build", "d.json"}, "anvilrt: missing -o FILE" + build_usage},
      {{"gen", "--game", "ac2", "--visuals", "3"}, "anvilrt: missing -o FILE" + gen_usage},
      {{"gen", "--game", "ac2", "-o", out}, "anvilrt: missing --visuals N" + gen_usage},
      {{"gen", "--visuals", "3", "-o", out}, "anvilrt: missing --game ac2|sws" + gen_usage},
      // too many arguments, unknown options, options given badly
      {{"dump", f, "extra"},
       "anvilrt: " + f + ": NAME and 0xID select data files of a .forge archive, and this is a level file\n"},
      {{"patch", f, "p.json", "third", "--dry-run"}, "anvilrt: unexpected argument 'third'" + patch_usage},
      {{"diff", f, f, f}, "anvilrt: unexpected argument '" + f + "'" + diff_usage},
      {{"build", "d.json", "e.json", "-o", out}, "anvilrt: unexpected argument 'e.json'" + build_usage},
      {{"gen", "--game", "ac2", "--visuals", "3", "-o", out, "more"},
       "anvilrt: unexpected argument 'more'" + gen_usage},
      {{"verify", "--frobnicate", f}, "anvilrt: unknown option '--frobnicate'" + verify_usage},
      {{"stats", "-x", f}, "anvilrt: unknown option '-x'" + stats_usage},
      {{"dump", "--game", "ac2", "--game", "sws", f}, "anvilrt: --game given more than once" + dump_usage},
      {{"dump", f, "--game"}, "anvilrt: --game needs a value" + dump_usage},
      {{"verify", f, "--no-json=1"}, "anvilrt: --no-json takes no value" + verify_usage},
      {{"version", "now"}, "anvilrt: unexpected argument 'now' (usage: anvilrt version (or anvilrt --version))\n"},
      // bad values: counts and dialects
      {{"verify", "--jobs", "0", f}, "anvilrt: --jobs 0: must be 1 or more\n"},
      {{"verify", "--jobs", "-2", f}, "anvilrt: --jobs -2: must be a whole number, 1 or more\n"},
      {{"verify", "-j", "x", f}, "anvilrt: --jobs x: must be a whole number, 1 or more\n"},
      {{"verify", "-j", "-3", f}, "anvilrt: --jobs -3: must be a whole number, 1 or more\n"},
      {{"gen", "--game", "ac2", "--visuals", "-3", "-o", out},
       "anvilrt: --visuals -3: must be a whole number, 0 or more\n"},
      {{"gen", "--game", "ac2", "--visuals", "1e3", "-o", out},
       "anvilrt: --visuals 1e3: must be a whole number, 0 or more\n"},
      {{"gen", "--game", "ac2", "--visuals", "99999999999999999999", "-o", out},
       "anvilrt: --visuals 99999999999999999999: too large (at most 18446744073709551615)\n"},
      {{"gen", "--game", "sws", "--visuals", "3", "--selectors", "-1", "-o", out},
       "anvilrt: --selectors -1: must be a whole number, 0 or more\n"},
      {{"gen", "--game", "ac2", "--visuals", "3", "--seed", "abc", "-o", out},
       "anvilrt: --seed abc: must be a whole number, 0 or more\n"},
      {{"gen", "--game", "ac2", "--visuals", "3", "--near-misses", "2.5", "-o", out},
       "anvilrt: --near-misses 2.5: must be a whole number, 0 or more\n"},
      {{"gen", "--game", "auto", "--visuals", "3", "-o", out}, "anvilrt: --game must be ac2 or sws, not 'auto'\n"},
      {{"stats", "--game", "ac3", f}, "anvilrt: --game must be ac2, sws or auto, not 'ac3'\n"},
      {{"diff", "--game", "x", f, f}, "anvilrt: --game must be ac2, sws or auto, not 'x'\n"},
      {{"patch", "--game", "", f, "p.json", "--dry-run"}, "anvilrt: --game must be ac2, sws or auto, not ''\n"},
  };
  for (const BadCall& call : calls) {
    auto r = run_cli(call.args);
    std::string joined;
    for (const auto& a : call.args) joined += a + " ";
    EXPECT_EQ(r.exit_code, 2) << joined;
    EXPECT_EQ(r.err, call.err) << joined;
    EXPECT_EQ(r.out, "") << joined;
  }
  EXPECT_FALSE(fs::exists(out));
}

// A folder of: a level file, the same bytes without an extension, random bytes with a level-file
// extension and without one, and a text file.
class Walk : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(dir_.path("levels/sub"));
    fs::copy_file(test::corpus("ac2/direct_mesh.bin"), dir_.path("levels/a.bin"));
    fs::copy_file(test::corpus("sws/lod_selector.bin"), dir_.path("levels/sub/level_without_extension"));
    std::mt19937 rng(3);
    std::vector<u8> random(4096);
    for (auto& b : random) b = static_cast<u8>(rng());
    test::write_file(dir_.path("levels/random.forge"), random);
    test::write_file(dir_.path("levels/random.dat"), random);
    std::string text = "# notes\nnot level data\n";
    test::write_file(dir_.path("levels/notes.md"), std::vector<u8>(text.begin(), text.end()));
  }
  std::string path(const std::string& name) const { return dir_.path("levels/" + name); }
  test::TempDir dir_;
};

TEST_F(Walk, FolderWalksTakeLevelFilesAndAllTakesEveryFile) {
  auto r = run_cli({"verify", path("")});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find(path("a.bin") + ": ac2,"), std::string::npos) << r.out;
  // A file the walk found below the folder named is joined with the system's separator ('\\' on Windows).
  const std::string in_sub =
      std::string("sub") + static_cast<char>(fs::path::preferred_separator) + "level_without_extension";
  EXPECT_NE(r.out.find(path(in_sub) + ": sws,"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(path("random.forge") + ": ac2, 4096 bytes, 0 objects carved"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("random.dat"), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("notes.md"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("verified 3 files: 3 identical, 0 differ, 0 missing, 0 unreadable"), std::string::npos) << r.out;
  EXPECT_EQ(r.err, "anvilrt: " + path("random.forge") +
                       ": warning: no object carved (as ac2 or sws): not level data?\n"
                       "anvilrt: skipped 2 files of the folders that carve no object and have no level-file "
                       "extension (--all takes them)\n");

  auto all = run_cli({"verify", "--all", "--game", "ac2", path("")});
  ASSERT_EQ(all.exit_code, 0) << all.out << all.err;
  EXPECT_NE(all.out.find("verified 5 files: 5 identical"), std::string::npos) << all.out;
  for (const std::string& name :
       {std::string("random.dat"), std::string("notes.md"), std::string("random.forge"), in_sub})
    EXPECT_NE(all.err.find(path(name) + ": warning: no object carved (as ac2)"), std::string::npos) << all.err;

  auto quiet = run_cli({"verify", "-q", path("")});
  EXPECT_EQ(quiet.err,
            "anvilrt: " + path("random.forge") + ": warning: no object carved (as ac2 or sws): not level data?\n")
      << "-q keeps warnings, drops notes";

  auto verbose = run_cli({"verify", "-v", path("")});
  EXPECT_NE(verbose.err.find(path("random.dat") + ": skipped: no object carved"), std::string::npos) << verbose.err;
  EXPECT_NE(verbose.err.find(path("a.bin") + ": game auto: picked ac2 (the whole file: ac2 carves"), std::string::npos)
      << verbose.err;

  auto stats = run_cli({"stats", "--json", path("")});
  ASSERT_EQ(stats.exit_code, 0) << stats.err;
  EXPECT_NE(stats.out.find("\n  \"files\": 3,\n"), std::string::npos) << stats.out;
  auto stats_all = run_cli({"stats", "--json", "--all", path("")});
  ASSERT_EQ(stats_all.exit_code, 0) << stats_all.err;
  EXPECT_NE(stats_all.out.find("\n  \"files\": 5,\n"), std::string::npos) << stats_all.out;
}

TEST_F(Walk, EveryCommandWarnsOfAFileThatCarvesNothing) {
  const std::string random = path("random.dat"), warn = ": warning: no object carved";
  auto patch_path = dir_.path("p.json");
  test::write_file(patch_path, std::vector<u8>{'[', ']'});
  const std::vector<std::vector<std::string>> calls = {
      {"verify", random},
      {"stats", random},
      {"dump", random},
      {"dump", "--full", random, "-o", dir_.path("d.json")},
      {"patch", random, patch_path, "-o", dir_.path("patched")},
      {"diff", random, random},
  };
  for (const auto& call : calls) {
    auto r = run_cli(call);
    EXPECT_EQ(r.exit_code, 0) << call[0] << r.err;
    EXPECT_NE(r.err.find("anvilrt: " + random + warn), std::string::npos) << call[0] << ": " << r.err;
  }
  auto level = run_cli({"dump", "-q", path("a.bin")});
  EXPECT_EQ(level.err, "") << "no warning for a level file, no note with -q";
}

TEST_F(Walk, MissingAndUnreadablePathsAreReportedAlike) {
  const std::string missing = dir_.path("nothing-here"), folder = path("sub");
  auto verify = run_cli({"verify", missing, path("a.bin"), dir_.path("gone")});
  EXPECT_EQ(verify.exit_code, 2);
  EXPECT_EQ(verify.err, "anvilrt: " + missing + ": no such file or folder\nanvilrt: " + dir_.path("gone") +
                            ": no such file or folder\n");
  EXPECT_NE(verify.out.find("verified 1 file: 1 identical, 0 differ, 2 missing, 0 unreadable"), std::string::npos)
      << verify.out;
  auto stats = run_cli({"stats", missing, path("a.bin")});
  EXPECT_EQ(stats.exit_code, 2);
  EXPECT_EQ(stats.err, "anvilrt: " + missing + ": no such file or folder\n");
  for (const std::vector<std::string>& call :
       std::vector<std::vector<std::string>>{{"dump", missing},
                                             {"diff", path("a.bin"), missing},
                                             {"patch", missing, path("a.bin"), "--dry-run"},
                                             {"build", missing, "-o", dir_.path("o.bin")}}) {
    auto r = run_cli(call);
    EXPECT_EQ(r.exit_code, 2) << call[0];
    EXPECT_EQ(r.err, "anvilrt: " + missing + ": no such file or folder\n") << call[0];
  }
  // A folder where a file is expected cannot be read: one line naming it.
  auto dump = run_cli({"dump", folder});
  EXPECT_EQ(dump.exit_code, 2);
  EXPECT_TRUE(dump.err.starts_with("anvilrt: " + folder + ": ")) << dump.err;
  EXPECT_EQ(std::count(dump.err.begin(), dump.err.end(), '\n'), 1) << dump.err;
}

}  // namespace
}  // namespace anvil
