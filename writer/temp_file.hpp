// Temporary files that a signal does not leave behind. Each one's path sits in a preallocated table
// that a SIGINT, SIGTERM or SIGHUP handler walks: it unlinks every registered temporary, then re-raises
// the signal with its default disposition, so the process dies of it and a shell reports 128 + N.
// Only `kill -9` (or a crash) can leave a temporary; its name says what it is (atomic_file.hpp).
// A temporary folder (TempFolder) is held the same way, with the files made in it: the handler removes
// them and then the folder.
//
// The handler is installed when the first temporary is created, for each of the three signals that is
// not ignored (`nohup` keeps SIGHUP ignored). Creating, renaming and removing a temporary happen with
// the three signals blocked in the calling thread; a handler running meanwhile in another thread waits
// for that step to finish, so it never sees a half-made entry.
#pragma once

#include <absl/status/statusor.h>

#include <string>
#include <string_view>

namespace anvil {

class TempFile {
 public:
  // Creates a new file from `pattern`, whose last six characters are "XXXXXX" (mkostemp; mode 0600,
  // close-on-exec) and registers it. The caller owns the returned descriptor (fd()).
  static absl::StatusOr<TempFile> create(const std::string& pattern);
  // No temporary (what a created one becomes once renamed or removed).
  TempFile() = default;
  TempFile(TempFile&& other) noexcept;
  // Removes the temporary held, if any, and takes `other`'s.
  TempFile& operator=(TempFile&& other) noexcept;
  TempFile(const TempFile&) = delete;
  ~TempFile() { remove(); }

  // Whether a temporary is held (created, neither renamed nor removed).
  bool held() const { return slot_ >= 0; }
  int fd() const { return fd_; }
  const std::string& path() const { return path_; }
  // Renames the temporary over `target` (rename(2): atomic) and unregisters it; on error it stays and
  // the result is the errno value.
  int rename_to(const std::string& target);
  // Unlinks and unregisters the temporary (nothing when already renamed or removed).
  void remove();

 private:
  TempFile(int slot, int fd, std::string path) : slot_(slot), fd_(fd), path_(std::move(path)) {}
  int slot_ = -1;
  int fd_ = -1;
  std::string path_;
};

// A new folder inside an open folder, for files that are all put in place at once or not at all
// (writer/staged_folder.hpp). Its files are named "0", "1", ... in the order they are made, so that a
// signal handler removes them without reading the folder. Names are resolved from descriptors, and
// nothing is followed: a symbolic link planted in the parent folder is never written through.
class TempFolder {
 public:
  // Creates `parent_fd`/<prefix><6 random letters> (mode 0700) and registers it; `parent_fd` is
  // duplicated, the caller keeps its own.
  static absl::StatusOr<TempFolder> create(int parent_fd, std::string_view prefix);
  TempFolder() = default;
  TempFolder(TempFolder&& other) noexcept;
  TempFolder& operator=(TempFolder&& other) noexcept;
  TempFolder(const TempFolder&) = delete;
  ~TempFolder() { remove(); }

  bool held() const { return slot_ >= 0; }
  const std::string& name() const { return name_; }
  int fd() const { return fd_; }
  // Creates the next file (O_CREAT | O_EXCL | O_NOFOLLOW, mode 0666 less the umask) and returns its
  // descriptor, which the caller closes; `name` gets its name in the folder.
  absl::StatusOr<int> create_file(std::string& name);
  // Unlinks the files left in it (those not renamed away), removes the folder and unregisters it.
  void remove();

 private:
  int slot_ = -1;
  int parent_fd_ = -1;
  int fd_ = -1;
  int files_ = 0;
  std::string name_;
};

}  // namespace anvil
