// An exclusive lock on a file, held by this process until released: the lock of a game folder
// (pipeline/folder_transaction.hpp), so that two anvilrt processes never change one folder at once. The
// lock is the system's (POSIX: flock on the open file; Windows: LockFileEx), so it goes with the process when it dies,
// even of SIGKILL: a stale lock file is never a reason to refuse.
#pragma once

#include <absl/status/statusor.h>

#include <chrono>
#include <string>

#include "platform/native_handle.hpp"

namespace anvil::platform {

class FileLock {
 public:
  // Opens `path` (creating it, mode 0666 less the umask) and takes its lock, waiting up to `wait` for
  // another holder to let go. Errors: DeadlineExceeded when the wait ran out; otherwise the system's
  // reason. Messages are the reason alone (the caller names the path).
  static absl::StatusOr<FileLock> acquire(const std::string& path, std::chrono::milliseconds wait);
  FileLock() = default;
  FileLock(FileLock&& other) noexcept : handle_(other.handle_) { other.handle_ = kNoHandle; }
  FileLock& operator=(FileLock&& other) noexcept;
  FileLock(const FileLock&) = delete;
  ~FileLock() { release(); }

  bool held() const { return handle_ != kNoHandle; }
  void release();

 private:
  explicit FileLock(NativeHandle handle) : handle_(handle) {}
  NativeHandle handle_ = kNoHandle;  // POSIX: the descriptor; Windows: the HANDLE
};

}  // namespace anvil::platform
