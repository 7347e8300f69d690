// The journal of a game folder's transaction (pipeline/folder_transaction.hpp) and what both the
// transaction and the recovery do with it. Internal to folder_transaction.cpp and folder_recovery.cpp.
//
// DIR/.anvilrt/journal, text, one entry a line:
//   anvilrt-journal 1
//   intent <the command, one line>
//   rename <relative>      the temporary of <relative> replaces it
//   remove <relative>      <relative> is removed
//   done                   every entry above was carried out (written last, just before the journal goes)
#pragma once

#include <absl/status/statusor.h>

#include <string>
#include <vector>

namespace anvil::folder::journal {

struct Entry {
  std::string relative;
  bool removal = false;
};

struct Journal {
  std::string intent;
  std::vector<Entry> entries;
  bool done = false;
};

// DIR/.anvilrt/journal, and the name it is written under before it is complete.
std::string journal_path(const std::string& dir);
std::string journal_draft_path(const std::string& dir);
std::string lock_path(const std::string& dir);
// The temporary that stands for DIR/relative until the rename: ".NAME.anvilrt-txn" beside it.
std::string temp_path(const std::string& dir, const std::string& relative);
inline constexpr const char* kTempSuffix = ".anvilrt-txn";
// The folder (DIR or one under it) that holds DIR/relative.
std::string parent_of(const std::string& dir, const std::string& relative);

std::string format(const Journal& j);
// The journal's text read back; an error (one line naming the journal) when anvilrt did not write it so.
absl::StatusOr<Journal> parse(const std::string& text, const std::string& path);

// A step of a transaction's writes (a write, sync, rename or removal of `path`): counted from 1 in this
// process; ANVILRT_CRASH_AT_STEP=N kills the process before step N, ANVILRT_FAIL_AT_STEP=N fails step N
// as a full disk would ("PATH: cannot write: No space left on device").
absl::Status step(const std::string& path);

// Carries out every entry of `j` in DIR (a temporary already renamed is skipped), syncs the folders
// touched, marks the journal done and removes it. Each thing done is appended to `done` when given.
absl::Status roll_forward(const std::string& dir, const Journal& j, bool count_steps, std::vector<std::string>* done);

// Removes every temporary (*.anvilrt-txn) in DIR and under DIR/.anvilrt, and a draft journal; one line
// per file removed.
absl::Status roll_back(const std::string& dir, std::vector<std::string>* done);

}  // namespace anvil::folder::journal
