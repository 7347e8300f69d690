// Every write into a game folder is one transaction (pipeline/folder_transaction.hpp): killed at every
// step of `patch DIR` over three archives and recovered, the folder is entirely before or entirely after
// (SQLite's crash tests); a full disk at any step, or a read-only archive, changes nothing or is finished
// by recovery; a second process waits for the folder's lock or refuses, never interleaving.
#include "pipeline/folder_transaction.hpp"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <thread>

#include "pipeline/game_folder.hpp"
#include "tests/game_folder_support.hpp"
#include "tests/posix/signal_support.hpp"

namespace anvil::test {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class FolderTransactionCli : public ::testing::TestWithParam<const char*> {
 protected:
  void SetUp() override {
    generate_game_folder(dir_, GetParam(), {"A.forge", "B.forge", "C.forge"}, {21, 22, 23});
    std::string text = "[";
    for (const char* name : {"A.forge", "B.forge", "C.forge"}) {
      const std::string k = archive_keys(dir_ + "/" + name).at(0).second.at(0);
      if (text.size() > 1) text += ",";
      text += R"({"op":"replace","path":"/archives/)" + std::string(name) + "/objects/" + k + R"(/active","value":0})";
    }
    patch_ = tmp_.path("p.json");
    text += "]";
    write_file(patch_, std::span(reinterpret_cast<const u8*>(text.data()), text.size()));
    before_ = snapshot_folder(dir_);
    CliResult r = run_cli({"patch", dir_, patch_, "-o", tmp_.path("after")});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    after_ = snapshot_folder(tmp_.path("after"));
    for (const auto& [name, bytes] : after_) ASSERT_NE(bytes, before_[name]) << name;
  }

  TempDir tmp_;
  std::string dir_ = tmp_.path("game");
  std::string patch_;
  FolderSnapshot before_, after_;
};

TEST_P(FolderTransactionCli, KilledAtEveryStepRecoversToBeforeOrAfter) {
  CrashSweepResult r = run_crash_sweep({.dir = dir_,
                                        .command = {"patch", dir_, patch_, "--in-place"},
                                        .before = before_,
                                        .after = after_,
                                        .recover = {},
                                        .prepare = {}});
  // Three archives written and synced, the journal, three renames, "done": both outcomes are reached.
  EXPECT_GE(r.killed, 12);
  EXPECT_GT(r.ended_before, 0);
  EXPECT_GT(r.ended_after, 0);
  EXPECT_EQ(r.ended_before + r.ended_after, r.killed);
}

TEST_P(FolderTransactionCli, RecoverFinishesAnInterruptedPatchAndSaysSo) {
  // Killed after the journal is in place (the last step but a few): the next command finishes the change.
  int steps = 0;
  for (int step = 1; step < 100; ++step) {
    restore_folder(dir_, before_);
    ScopedEnv crash("ANVILRT_CRASH_AT_STEP", std::to_string(step));
    if (run_cli({"patch", dir_, patch_, "--in-place"}).exit_code == 0) {
      steps = step - 1;
      break;
    }
  }
  ASSERT_GT(steps, 3);
  restore_folder(dir_, before_);
  {
    ScopedEnv crash("ANVILRT_CRASH_AT_STEP", std::to_string(steps - 1));
    ASSERT_EQ(run_cli({"patch", dir_, patch_, "--in-place"}).exit_code, 137);
  }
  ASSERT_TRUE(fs::exists(dir_ + "/.anvilrt/journal"));
  // Opening the folder (the one door) finishes it.
  auto opened = folder::open_game_folder(dir_);
  ASSERT_TRUE(opened.ok()) << opened.status();
  EXPECT_THAT(opened->recovered, HasSubstr(dir_ + ": finished the interrupted \"patch " + patch_ + "\""));
  EXPECT_EQ(snapshot_folder(dir_), after_);
  EXPECT_FALSE(folder::interrupted(dir_));
  // Killed before: the next command (here `ls`) rolls back, saying so on stderr.
  restore_folder(dir_, before_);
  {
    ScopedEnv crash("ANVILRT_CRASH_AT_STEP", "3");
    ASSERT_EQ(run_cli({"patch", dir_, patch_, "--in-place"}).exit_code, 137);
  }
  CliResult ls = run_cli({"ls", dir_});
  EXPECT_EQ(ls.exit_code, 0) << ls.err;
  EXPECT_THAT(ls.err, HasSubstr(dir_ + ": rolled back an interrupted change (it had not reached its journal; 1 "
                                       "unfinished file removed)"));
  EXPECT_EQ(std::count(ls.err.begin(), ls.err.end(), '\n'), 1) << ls.err;
  EXPECT_FALSE(fs::exists(dir_ + "/.A.forge.anvilrt-txn"));
  EXPECT_FALSE(folder::interrupted(dir_));
  EXPECT_EQ(snapshot_folder(dir_), before_);
}

TEST_P(FolderTransactionCli, AFullDiskAtAnyStepChangesNothingOrIsFinished) {
  for (int step = 1;; ++step) {
    restore_folder(dir_, before_);
    CliResult r;
    {
      ScopedEnv fail("ANVILRT_FAIL_AT_STEP", std::to_string(step));
      r = run_cli({"patch", dir_, patch_, "--in-place"});
    }
    if (r.exit_code == 0) {
      EXPECT_GT(step, 10);
      break;
    }
    ASSERT_EQ(r.exit_code, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr("No space left on device")) << "step " << step;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    if (r.err.find("journaled") == std::string::npos) {
      // Before the journal: nothing changed, nothing left behind.
      EXPECT_EQ(snapshot_folder(dir_), before_) << "step " << step << ": " << r.err;
      EXPECT_FALSE(folder::interrupted(dir_)) << "step " << step;
    } else {
      ASSERT_EQ(run_cli({"verify", dir_}).exit_code, 0);
      EXPECT_EQ(snapshot_folder(dir_), after_) << "step " << step;
    }
  }
}

TEST_P(FolderTransactionCli, AReadOnlyArchiveIsRefusedAndNothingChanges) {
  fs::permissions(dir_ + "/B.forge", fs::perms::owner_read | fs::perms::group_read | fs::perms::others_read);
  CliResult r = run_cli({"patch", dir_, patch_, "--in-place"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(dir_ + "/B.forge: read-only"));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_EQ(snapshot_folder(dir_), before_);
  EXPECT_FALSE(folder::interrupted(dir_));
}

TEST_P(FolderTransactionCli, ASecondProcessWaitsForTheLockOrRefuses) {
  {
    // This process holds the folder: a command that may wait 200 ms refuses, in one line, writing nothing.
    auto opened = folder::open_game_folder(dir_, {.use = folder::FolderUse::change});
    ASSERT_TRUE(opened.ok()) << opened.status();
    auto held = folder::FolderTransaction::begin(dir_, opened->take_lock(), "test");
    ASSERT_TRUE(held.ok()) << held.status();
    ScopedEnv wait("ANVILRT_LOCK_WAIT_MS", "200");
    CliResult r = run_cli({"patch", dir_, patch_, "--in-place"});
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_THAT(r.err, HasSubstr("another anvilrt process is changing this folder"));
    EXPECT_EQ(snapshot_folder(dir_), before_);
    // With the default wait, the command waits for the holder to let go, then runs.
    std::thread release([&] {
      std::this_thread::sleep_for(std::chrono::milliseconds(500));
      held = absl::CancelledError("released");
    });
    CliResult waited;
    {
      ScopedEnv no_limit("ANVILRT_LOCK_WAIT_MS", "10000");
      waited = run_cli({"patch", dir_, patch_, "--in-place"});
    }
    release.join();
    EXPECT_EQ(waited.exit_code, 0) << waited.err;
    EXPECT_EQ(snapshot_folder(dir_), after_);
  }
  // Two processes at once, each changing another field of the same object: neither change is lost, which
  // an interleaving (both reading the old archive) would do.
  restore_folder(dir_, before_);
  const std::string k = archive_keys(dir_ + "/A.forge").at(0).second.at(0);
  std::vector<std::string> patches;
  for (const char* field : {"active", "managed"}) {
    const std::string value = std::string(field) == "active" ? "0" : "1";
    std::string text = R"([{"op":"replace","path":"/objects/)" + k + "/" + field + R"(","value":)" + value + "}]";
    patches.push_back(tmp_.path(std::string(field) + ".json"));
    write_file(patches.back(), std::span(reinterpret_cast<const u8*>(text.data()), text.size()));
  }
  std::vector<pid_t> pids;
  for (const std::string& p : patches)
    pids.push_back(spawn_with_default_signals({ANVILRT_BINARY, "patch", dir_, p, "--in-place"}));
  for (pid_t pid : pids) {
    ASSERT_GT(pid, 0);
    int status = 0;
    ASSERT_EQ(waitpid(pid, &status, 0), pid);
    EXPECT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  }
  EXPECT_EQ(object_field(dir_ + "/A.forge", k, "active"), "0");
  EXPECT_EQ(object_field(dir_ + "/A.forge", k, "managed"), "1");
}

INSTANTIATE_TEST_SUITE_P(Games, FolderTransactionCli, ::testing::Values("ac2", "sws"));

TEST(FolderTransaction, DroppedWithoutCommitLeavesNothing) {
  TempDir tmp;
  const std::string dir = tmp.path("d");
  fs::create_directories(dir);
  write_file(dir + "/x.forge", std::vector<u8>{1, 2, 3});
  {
    auto lock = folder::lock_folder(dir);
    ASSERT_TRUE(lock.ok()) << lock.status();
    auto txn = folder::FolderTransaction::begin(dir, std::move(*lock), "test");
    ASSERT_TRUE(txn.ok()) << txn.status();
    ASSERT_TRUE(txn->stage("x.forge", std::vector<u8>{4, 5}).ok());
    ASSERT_TRUE(txn->stage(".anvilrt/mods/m.json", std::vector<u8>{'{', '}'}).ok());
    EXPECT_TRUE(folder::interrupted(dir));  // its temporaries are there
    // Names outside the folder are refused.
    EXPECT_FALSE(txn->stage("../y", std::vector<u8>{}).ok());
    EXPECT_FALSE(txn->stage("sub/y", std::vector<u8>{}).ok());
    EXPECT_FALSE(txn->stage("x.forge", std::vector<u8>{}).ok());  // staged twice
  }
  EXPECT_EQ(read_file(dir + "/x.forge"), (std::vector<u8>{1, 2, 3}));
  EXPECT_FALSE(fs::exists(dir + "/.anvilrt/mods/m.json"));
  EXPECT_FALSE(folder::interrupted(dir));
  // Committed: both in place, a removal carried out.
  // A transaction begins only under the folder's lock.
  EXPECT_FALSE(folder::FolderTransaction::begin(dir, platform::FileLock(), "test").ok());
  auto lock = folder::lock_folder(dir);
  ASSERT_TRUE(lock.ok()) << lock.status();
  auto txn = folder::FolderTransaction::begin(dir, std::move(*lock), "test");
  ASSERT_TRUE(txn.ok());
  ASSERT_TRUE(txn->stage(".anvilrt/mods/m.json", std::vector<u8>{'{', '}'}).ok());
  ASSERT_TRUE(txn->stage_removal("x.forge").ok());
  ASSERT_TRUE(txn->commit().ok());
  EXPECT_FALSE(fs::exists(dir + "/x.forge"));
  EXPECT_EQ(read_file(dir + "/.anvilrt/mods/m.json"), (std::vector<u8>{'{', '}'}));
  EXPECT_FALSE(folder::interrupted(dir));
}

TEST(FolderTransaction, AJournalAnvilrtDidNotWriteIsRefusedInOneLine) {
  TempDir tmp;
  const std::string dir = tmp.path("d");
  fs::create_directories(dir + "/.anvilrt");
  const std::string text = "anvilrt-journal 1\nintent x\nrename ../../etc/passwd\n";
  write_file(dir + "/.anvilrt/journal", std::span(reinterpret_cast<const u8*>(text.data()), text.size()));
  auto r = folder::open_game_folder(dir, {.archives_required = false});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr("journal: line 3: an entry names a file outside the folder"));
}

}  // namespace
}  // namespace anvil::test
