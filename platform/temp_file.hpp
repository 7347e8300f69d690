// Temporary files and folders that an interrupt does not leave behind. Each one sits in a preallocated
// table that the interrupt handler walks: it removes every registered temporary, then lets the interrupt
// end the process as it would have (POSIX: SIGINT, SIGTERM and SIGHUP, re-raised with their default
// disposition, so a shell reports 128 + N; Windows: Ctrl+C, Ctrl+Break and the console's closing, through
// SetConsoleCtrlHandler). Only a kill that runs no handler (`kill -9`, Task Manager) or a crash can leave a
// temporary; its name says what it is (replace_file.hpp, staged_folder.hpp).
// A temporary folder (TempFolder) is held the same way, with the files made in it: the handler removes
// them and then the folder.
//
// The handler is installed when the first temporary is created (on POSIX for each of the three signals
// that is not ignored: `nohup` keeps SIGHUP ignored). Creating, renaming and removing a temporary are
// steps the handler waits out, so it never sees a half-made entry.
#pragma once

#include <absl/status/statusor.h>

#include <string>
#include <string_view>

#include "platform/native_handle.hpp"

namespace anvil::platform {

class TempFile {
 public:
  // Creates a new file from `pattern` (UTF-8), whose last six characters are "XXXXXX", open for reading
  // and writing (POSIX: mkostemp, mode 0600, close-on-exec), and registers it. The caller owns the
  // returned handle (handle()).
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
  NativeHandle handle() const { return handle_; }
  const std::string& path() const { return path_; }
  // Renames the temporary over `target` (atomic) and unregisters it; on error it stays, and the status's
  // message is the system's reason.
  absl::Status rename_to(const std::string& target);
  // Removes and unregisters the temporary (nothing when already renamed or removed).
  void remove();

 private:
  TempFile(int slot, NativeHandle handle, std::string path) : slot_(slot), handle_(handle), path_(std::move(path)) {}
  int slot_ = -1;
  NativeHandle handle_ = kNoHandle;
  std::string path_;
};

// A new folder inside an open folder, for files that are all put in place at once or not at all
// (staged_folder.hpp). Its files are named "0", "1", ... in the order they are made, so that the
// interrupt handler removes them without reading the folder. Names are resolved from the open folder,
// and nothing is followed: a link planted in the parent folder is never written through.
class TempFolder {
 public:
  // Creates <prefix><6 random letters> in the open folder `parent` and registers it; `parent` is
  // duplicated, the caller keeps its own.
  static absl::StatusOr<TempFolder> create(NativeHandle parent, std::string_view prefix);
  TempFolder() = default;
  TempFolder(TempFolder&& other) noexcept;
  TempFolder& operator=(TempFolder&& other) noexcept;
  TempFolder(const TempFolder&) = delete;
  ~TempFolder() { remove(); }

  bool held() const { return slot_ >= 0; }
  const std::string& name() const { return name_; }
  NativeHandle handle() const { return handle_; }
  // Creates the next file (new, never through a link; POSIX: mode 0666 less the umask) and returns its
  // handle, open for writing, which the caller closes; `name` gets its name in the folder.
  absl::StatusOr<NativeHandle> create_file(std::string& name);
  // Removes the files left in it (those not renamed away), removes the folder and unregisters it.
  void remove();

 private:
  int slot_ = -1;
  NativeHandle parent_ = kNoHandle;
  NativeHandle handle_ = kNoHandle;
  int files_ = 0;
  std::string name_;
};

}  // namespace anvil::platform
