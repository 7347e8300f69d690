// Test helpers for game folders (pipeline/game_folder.hpp) and their transactions
// (pipeline/folder_transaction.hpp), through the real binary: a generated folder of archives, a folder's
// archives as bytes, and the crash sweep (SQLite's crash tests, docs/design.md Transactions): a command run
// again and again, killed at step 1, 2, ... of its transaction until it completes, each time recovered and
// checked to be entirely the state before or entirely the state after, for every archive alike.
#pragma once

#include <functional>
#include <map>
#include <string>
#include <vector>

#include "tests/test_support.hpp"

namespace anvil::test {

// The `.forge` files directly in a folder, by name, as bytes.
using FolderSnapshot = std::map<std::string, std::vector<u8>>;
FolderSnapshot snapshot_folder(const std::string& dir);
// Makes `dir` hold exactly `snapshot`'s archives (anvilrt's state folder and any other file removed).
void restore_folder(const std::string& dir, const FolderSnapshot& snapshot);

// `anvilrt gen --forge` of `names.size()` archives into `dir` (made), archive i with seed seeds[i] (two
// equal seeds: two archives holding the same keys), `datafiles` data files of `visuals` Visuals each.
void generate_game_folder(const std::string& dir, const std::string& game, const std::vector<std::string>& names,
                          const std::vector<int>& seeds, int datafiles = 2, int visuals = 3);

// The object keys of an archive, per data file in order (`anvilrt dump`).
std::vector<std::pair<std::string, std::vector<std::string>>> archive_keys(const std::string& archive);

// A top-level field of the object with this key in an archive, as JSON text (`anvilrt dump`); empty when
// there is none.
std::string object_field(const std::string& archive, const std::string& key, const std::string& field);

// An environment variable set for the scope (the commands run_cli starts inherit it).
class ScopedEnv {
 public:
  ScopedEnv(const char* name, const std::string& value);
  ~ScopedEnv();
  ScopedEnv(const ScopedEnv&) = delete;
  ScopedEnv& operator=(const ScopedEnv&) = delete;

 private:
  std::string name_;
};

struct CrashSweep {
  std::string dir;                   // the game folder the command changes
  std::vector<std::string> command;  // anvilrt's arguments (a command that writes into `dir`)
  FolderSnapshot before, after;      // the folder's archives before the command and after it completes
  // Run after each kill (its exit code must be 0): what finishes or rolls back the interrupted change.
  std::vector<std::string> recover;  // default: verify DIR
  // Called after `restore_folder(dir, before)` before each run: a state the command needs besides the
  // archives (a mod's undo data under DIR/.anvilrt/, say).
  std::function<void()> prepare;
};

struct CrashSweepResult {
  int killed = 0;        // runs killed (steps 1..killed), the last run completed
  int ended_before = 0;  // of those, recovered to the state before
  int ended_after = 0;   // recovered to the state after
};

// Runs sweep.command with ANVILRT_CRASH_AT_STEP=1, 2, ... on a folder restored to `before` each time,
// until a run completes (exit 0; at most 500 runs). After each kill (exit 137), runs `recover`, then
// asserts (gtest) that every archive is `before`'s or every archive is `after`'s, that DIR holds no journal
// or temporary, and that `anvilrt verify DIR` passes. Fails the test if no run was killed.
CrashSweepResult run_crash_sweep(const CrashSweep& sweep);

}  // namespace anvil::test
