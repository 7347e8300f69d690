// Every change to a game folder (docs/game-folders.md) is one transaction: all the files it changes are
// changed, or none, even when the process is killed or the power goes at any instant.
//
// The idea is SQLite's rollback journal turned around for whole files: each new file is written beside
// its target as a temporary (".NAME.anvilrt-txn", in the target's folder) and synced; nothing is visible
// yet. commit() then writes the plan, the journal DIR/.anvilrt/journal (written as journal.new, synced and
// renamed: it appears whole or not at all), and that rename is the instant the transaction happens. Each
// temporary is renamed over its target, the folders are synced, "done" is written to the journal and the
// journal is removed. A process that dies before the journal's rename leaves only temporaries, which the
// next opening of the folder removes (rolled back); one that dies after it leaves the journal, which the
// next opening follows to the end (rolled forward: a temporary still there is renamed, one already gone
// was renamed before).
//
// DIR/.anvilrt/lock is the folder's lock: one transaction (or recovery) at a time; a second anvilrt
// process waits for it a bounded time (10 s, or ANVILRT_LOCK_WAIT_MS), then refuses in one line.
//
// Crash tests (docs/design.md, Transactions): ANVILRT_CRASH_AT_STEP=N kills the process (SIGKILL on
// itself) just before the N-th step of its transactions, counted from 1 over every write, sync, rename and
// removal of stage() and commit(); ANVILRT_FAIL_AT_STEP=N makes the N-th step fail as a full disk does.
#pragma once

#include <absl/status/statusor.h>

#include <cstdio>
#include <functional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "model/primitives.hpp"
#include "platform/file_lock.hpp"

namespace anvil::folder {

// The folder of anvilrt's own files in a game folder, relative to it.
inline constexpr const char* kStateFolder = ".anvilrt";

class FolderTransaction {
 public:
  // Starts a transaction named by `intent` (one line, written into the journal: "patch mod.json") in DIR,
  // whose lock `lock` is (lock_folder): the folder was opened for a change by the one door
  // (folder::open_game_folder, FolderUse::change), which finished or rolled back what an interrupted
  // transaction left before. A lock not held is refused (one line naming DIR).
  static absl::StatusOr<FolderTransaction> begin(const std::string& dir, platform::FileLock lock, std::string intent);
  FolderTransaction(FolderTransaction&& other) noexcept { *this = std::move(other); }
  FolderTransaction& operator=(FolderTransaction&& other) noexcept;
  FolderTransaction(const FolderTransaction&) = delete;
  // Without commit(): every staged file removed, nothing changed.
  ~FolderTransaction();

  const std::string& dir() const { return dir_; }
  // DIR/relative.
  std::string path(const std::string& relative) const;

  // New content for `relative` (a file of DIR, or one under DIR/.anvilrt/), written to a temporary beside
  // it and synced. A target that exists and is read-only is refused (one line naming it), as is a name
  // staged twice or one that leaves DIR.
  absl::Status stage(const std::string& relative, std::span<const u8> bytes);
  // The same, the bytes written by `write` into the temporary's stream (`temp_path` names the temporary,
  // for a writer that reads back what it wrote): a large archive is never held in memory whole.
  using Writer = std::function<absl::Status(std::FILE* file, const std::string& temp_path)>;
  absl::Status stage_with(const std::string& relative, const Writer& write);
  // `relative` is to be removed (nothing when it does not exist by then).
  absl::Status stage_removal(const std::string& relative);
  // The relative names staged so far, in order.
  std::vector<std::string> staged() const;

  // The journal written and synced, every staged file renamed over its target (or removed), the folders
  // synced, "done" written, the journal removed. A failure before the journal is in place removes the
  // temporaries: nothing changed. A failure after it leaves the journal, and the message says that the
  // next anvilrt command on DIR finishes the transaction.
  absl::Status commit();

 private:
  struct Staged {
    std::string relative;
    bool removal = false;
  };
  FolderTransaction(std::string dir, std::string intent, platform::FileLock lock)
      : dir_(std::move(dir)), intent_(std::move(intent)), lock_(std::move(lock)), finished_(false) {}
  absl::Status check_target(const std::string& relative) const;
  absl::Status write_journal();
  void discard();

  std::string dir_;
  std::string intent_;
  platform::FileLock lock_;
  std::vector<Staged> staged_;
  bool finished_ = true;  // a transaction moved from or default-made owns nothing
};

// Whether DIR holds what an interrupted transaction left (a journal, or temporaries): cheap, no lock.
bool interrupted(const std::string& dir);
// DIR's lock, its state folder DIR/.anvilrt/ made first; waits for another holder as above. Errors are one
// line naming DIR.
absl::StatusOr<platform::FileLock> lock_folder(const std::string& dir);
// With DIR's lock held (`held`): finishes an interrupted transaction whose journal is in place, or rolls
// back one that had not reached it. Returns the one line saying which ("DIR: finished the interrupted
// ..." / "DIR: rolled back ..."), empty when nothing was interrupted. Its one caller is the door that opens
// a folder (pipeline/game_folder.hpp, open_game_folder): no command recovers but by opening the folder.
absl::StatusOr<std::string> recover_locked(const std::string& dir, const platform::FileLock& held);

}  // namespace anvil::folder
