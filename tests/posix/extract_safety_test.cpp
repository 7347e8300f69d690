// `extract` through the binary: it stays inside its folder (a symbolic link at a file's name is replaced,
// never written through), and it is all or nothing (a data file that does not read leaves the folder as
// it was) unless --keep-going; --no-clobber replaces nothing; `-o -` is refused.
#include <absl/strings/str_format.h>
#include <absl/strings/str_split.h>
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "reader/forge/archive_reader.hpp"
#include "tests/posix/signal_support.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

// Every entry of a folder (names only, sorted), links not followed.
std::vector<std::string> folder_entries(const std::string& folder) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(folder)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

class ExtractSafety : public ::testing::Test {
 protected:
  void SetUp() override {
    archive_ = dir_.path("a.forge");
    auto r = test::run_cli({"gen", "--forge", "--game", "ac2", "--datafiles", "5", "--visuals", "4", "--seed", "21",
                            "--block-size", "400", "-o", archive_});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    bytes_ = test::read_file(archive_);
    auto archive = forge::read_archive(bytes_);
    ASSERT_TRUE(archive.ok()) << archive.status();
    archive_tables_ = std::move(*archive);
    auto all = test::run_cli({"extract", archive_, "-o", dir_.path("reference")});
    ASSERT_EQ(all.exit_code, 0) << all.err;
    for (const auto& e : fs::directory_iterator(dir_.path("reference")))
      reference_[e.path().filename().string()] = test::read_file(e.path().string());
    ASSERT_EQ(reference_.size(), 6u);  // five data files and forge.json
    ASSERT_TRUE(reference_.count("forge.json"));
  }

  // The archive with data file 1's first stored bytes overwritten: it no longer reads (its block set
  // header is nonsense), the others do.
  std::string damaged() {
    std::vector<u8> bytes = bytes_;
    u64 at = archive_tables_.files[1].stored_offset();
    for (u64 k = 0; k < 64; ++k) bytes[at + k] = 0xFF;
    std::string path = dir_.path("damaged.forge");
    test::write_file(path, bytes);
    return path;
  }

  test::TempDir dir_;
  std::string archive_;
  std::vector<u8> bytes_;
  forge::Archive archive_tables_;
  std::map<std::string, std::vector<u8>> reference_;  // file name -> bytes, as a plain extract writes them
};

// A link at a data file's name, to a file outside the folder: the link is replaced by the data file and
// the file it pointed to keeps its bytes. A link to a folder is replaced the same way.
TEST_F(ExtractSafety, ALinkAtANameIsReplacedNotFollowed) {
  std::string out = dir_.path("out"), elsewhere = dir_.path("elsewhere");
  fs::create_directories(out);
  fs::create_directories(elsewhere);
  test::write_file(elsewhere + "/target", std::vector<u8>{'k', 'e', 'e', 'p'});
  fs::create_symlink(elsewhere + "/target", out + "/DataFile_000.data");
  fs::create_directory_symlink(elsewhere, out + "/DataFile_001.data");
  auto r = test::run_cli({"extract", archive_, "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(elsewhere + "/target"), (std::vector<u8>{'k', 'e', 'e', 'p'}));
  EXPECT_EQ(folder_entries(elsewhere), std::vector<std::string>{"target"});
  for (const auto& [name, bytes] : reference_) {
    EXPECT_TRUE(fs::is_regular_file(fs::symlink_status(out + "/" + name))) << name;
    EXPECT_EQ(test::read_file(out + "/" + name), bytes) << name;
  }
  EXPECT_EQ(folder_entries(out).size(), reference_.size()) << "no staging folder is left";
}

// A folder at a data file's name cannot be replaced by a file: refused before anything is written.
TEST_F(ExtractSafety, AFolderAtANameIsRefusedBeforeAnythingIsWritten) {
  std::string out = dir_.path("out");
  fs::create_directories(out + "/DataFile_003.data");
  auto r = test::run_cli({"extract", archive_, "-o", out});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "anvilrt: " + out + "/DataFile_003.data: a folder is in the way\n");
  EXPECT_EQ(folder_entries(out), std::vector<std::string>{"DataFile_003.data"});
}

// -o naming a link to a folder: the user named it, and the files go into that folder.
TEST_F(ExtractSafety, TheFolderGivenMayBeALink) {
  std::string real = dir_.path("real"), link = dir_.path("link");
  fs::create_directories(real);
  fs::create_directory_symlink(real, link);
  auto r = test::run_cli({"extract", archive_, "DataFile_002", "-o", link});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(real + "/DataFile_002.data"), reference_["DataFile_002.data"]);
  EXPECT_EQ(folder_entries(real), (std::vector<std::string>{"DataFile_002.data", "forge.json"}));
}

// A data file that does not read: nothing is written, the folder keeps what it had (a file of the same
// name as a data file that reads included), and the error names the data file.
TEST_F(ExtractSafety, ADataFileThatDoesNotReadWritesNothing) {
  std::string bad = damaged();
  std::string out = dir_.path("out");
  fs::create_directories(out);
  test::write_file(out + "/DataFile_000.data", std::vector<u8>{'o', 'l', 'd'});
  auto r = test::run_cli({"extract", bad, "-o", out});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_THAT(r.err, HasSubstr("anvilrt: " + bad + ": offset 0x"));
  EXPECT_THAT(r.err, HasSubstr("data file 1 'DataFile_001'"));
  EXPECT_THAT(r.err, HasSubstr("nothing is written"));
  EXPECT_EQ(r.out, "");
  EXPECT_EQ(folder_entries(out), std::vector<std::string>{"DataFile_000.data"});
  EXPECT_EQ(test::read_file(out + "/DataFile_000.data"), (std::vector<u8>{'o', 'l', 'd'}));

  // A folder that did not exist is not left behind either.
  std::string fresh = dir_.path("fresh/deeper");
  r = test::run_cli({"extract", bad, "-o", fresh});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(fs::exists(dir_.path("fresh")));
}

// --keep-going: every data file that reads is written, the other one is named on its own line, exit 2.
TEST_F(ExtractSafety, KeepGoingWritesTheOthersAndListsTheFailure) {
  std::string bad = damaged();
  std::string out = dir_.path("out");
  auto r = test::run_cli({"extract", bad, "-o", out, "--keep-going"});
  EXPECT_EQ(r.exit_code, 2);
  std::vector<std::string> errors = absl::StrSplit(r.err, '\n', absl::SkipEmpty());
  ASSERT_EQ(errors.size(), 1u) << r.err;
  EXPECT_THAT(errors[0], HasSubstr("anvilrt: " + bad + ": offset 0x"));
  EXPECT_THAT(errors[0], HasSubstr("data file 1 'DataFile_001'"));
  std::vector<std::string> written = folder_entries(out);
  EXPECT_EQ(written, (std::vector<std::string>{"DataFile_000.data", "DataFile_002.data", "DataFile_003.data",
                                               "DataFile_004.data", "forge.json"}));
  for (const std::string& name : written)
    if (name != "forge.json") {
      EXPECT_EQ(test::read_file(out + "/" + name), reference_[name]) << name;
    }
  // forge.json lists the four written, and says it is not the whole archive (pack refuses it).
  const std::string list = test::read_text(out + "/forge.json");
  EXPECT_THAT(list, HasSubstr("\"complete\": false"));
  EXPECT_THAT(list, HasSubstr("\"file\": \"DataFile_004.data\""));
  EXPECT_THAT(list, Not(HasSubstr("DataFile_001")));
  std::vector<std::string> lines = absl::StrSplit(r.out, '\n', absl::SkipEmpty());
  EXPECT_EQ(lines.size(), 5u) << r.out;
}

// --no-clobber: an existing file (or a dangling link) at a data file's name is refused, naming it, before
// anything is written.
TEST_F(ExtractSafety, NoClobberReplacesNothing) {
  std::string out = dir_.path("out");
  fs::create_directories(out);
  test::write_file(out + "/DataFile_004.data", std::vector<u8>{'o', 'l', 'd'});
  auto r = test::run_cli({"extract", archive_, "-o", out, "--no-clobber"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "anvilrt: " + out + "/DataFile_004.data: exists (--no-clobber: nothing is written)\n");
  EXPECT_EQ(folder_entries(out), std::vector<std::string>{"DataFile_004.data"});
  EXPECT_EQ(test::read_file(out + "/DataFile_004.data"), (std::vector<u8>{'o', 'l', 'd'}));

  fs::remove(out + "/DataFile_004.data");
  fs::create_symlink(dir_.path("nowhere"), out + "/DataFile_002.data");
  r = test::run_cli({"extract", archive_, "-o", out, "--no-clobber"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "anvilrt: " + out + "/DataFile_002.data: exists (--no-clobber: nothing is written)\n");
  EXPECT_FALSE(fs::exists(dir_.path("nowhere")));

  // Into a folder that holds none of the names, it writes them all.
  fs::remove(out + "/DataFile_002.data");
  r = test::run_cli({"extract", archive_, "-o", out, "--no-clobber"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(folder_entries(out).size(), 6u);  // and forge.json

  // forge.json is one of the names: an existing one is kept, and nothing is written.
  std::string again = dir_.path("again");
  fs::create_directories(again);
  test::write_file(again + "/forge.json", std::vector<u8>{'{', '}'});
  r = test::run_cli({"extract", archive_, "-o", again, "--no-clobber"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "anvilrt: " + again + "/forge.json: exists (--no-clobber: nothing is written)\n");
  EXPECT_EQ(folder_entries(again), std::vector<std::string>{"forge.json"});
}

TEST_F(ExtractSafety, StandardOutputIsRefused) {
  bool existed = fs::exists("-");
  auto r = test::run_cli({"extract", archive_, "-o", "-"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "anvilrt: -o -: extract writes files into a folder; name one (standard output takes no files)\n");
  EXPECT_EQ(fs::exists("-"), existed);
}

// A real signal while extract stages its files: the staging folder goes with them, and the folder is as it
// was (here: empty). Not timed: the child is stopped to look at the folder, and the signal is sent while
// the staging folder holds some of the files but not all (so no rename into place has begun) and the
// child does not block it.
class SignalDuringExtract : public ::testing::TestWithParam<int> {};

TEST_P(SignalDuringExtract, LeavesTheFolderAsItWas) {
  const int sig = GetParam();
  test::TempDir dir;
  std::string archive = dir.path("many.forge"), out = dir.path("out");
  const std::size_t datafiles = 30;
  auto r = test::run_cli({"gen", "--forge", "--game", "ac2", "--datafiles", std::to_string(datafiles), "--visuals",
                          "150", "--seed", "4", "-o", archive});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  fs::create_directories(out);
  std::vector<std::string> args = {ANVILRT_BINARY, "extract", archive, "-o", out};
  const pid_t pid = test::spawn_with_default_signals(args);
  ASSERT_GT(pid, 0);

  int status = 0;
  bool sent = false;
  while (!sent) {
    ::kill(pid, SIGSTOP);
    ASSERT_EQ(::waitpid(pid, &status, WUNTRACED), pid);
    ASSERT_TRUE(WIFSTOPPED(status)) << "extract ended before its staging folder was seen: " << status;
    std::vector<std::string> names = folder_entries(out);
    if (names.size() == 1 && names[0].starts_with(".anvilrt-stage-")) {
      std::size_t staged = folder_entries(out + "/" + names[0]).size();
      if (staged >= 1 && staged < datafiles && !test::blocks_signal(pid, sig)) {
        ::kill(pid, sig);
        sent = true;
      }
    }
    ::kill(pid, SIGCONT);
    if (!sent) std::this_thread::yield();
  }
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status)) << status;
  EXPECT_EQ(WTERMSIG(status), sig);
  EXPECT_TRUE(folder_entries(out).empty()) << folder_entries(out).front();
}

INSTANTIATE_TEST_SUITE_P(Signals, SignalDuringExtract, ::testing::Values(SIGINT, SIGTERM, SIGHUP),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(sigabbrev_np(info.param));
                         });

}  // namespace
}  // namespace anvil
