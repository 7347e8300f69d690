// platform/file_lock.hpp on Windows: LockFileEx on the whole lock file. The system lets go of the lock
// when the handle closes, or when the process ends however it ends.
#include "platform/file_lock.hpp"

#include <absl/strings/str_cat.h>

#include <thread>
#include <utility>

#include "platform/windows/system.hpp"

namespace anvil::platform {

namespace {

// The range locked: the whole file, however long it grows.
constexpr DWORD kWholeFile = MAXDWORD;

}  // namespace

absl::StatusOr<FileLock> FileLock::acquire(const std::string& path, std::chrono::milliseconds wait) {
  // Shared for deletion and writing: the lock, not the sharing mode, keeps a second process out, so that a
  // process that sees the lock taken can still open the file to wait on it.
  HANDLE h = ::CreateFileW(windows::wide(path).c_str(), GENERIC_READ | GENERIC_WRITE,
                           FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr, OPEN_ALWAYS,
                           FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE)
    return absl::UnavailableError(absl::StrCat("cannot open the lock: ", windows::last_error_status().message()));
  const auto deadline = std::chrono::steady_clock::now() + wait;
  // Polled rather than blocked on, as on POSIX, so that the wait is bounded.
  for (;;) {
    OVERLAPPED whole{};
    if (::LockFileEx(h, LOCKFILE_EXCLUSIVE_LOCK | LOCKFILE_FAIL_IMMEDIATELY, 0, kWholeFile, kWholeFile, &whole))
      return FileLock(reinterpret_cast<NativeHandle>(h));
    const DWORD error = ::GetLastError();
    if (error != ERROR_LOCK_VIOLATION && error != ERROR_IO_PENDING) {
      ::CloseHandle(h);
      return absl::UnavailableError(absl::StrCat("cannot lock: ", windows::error_status(error).message()));
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      ::CloseHandle(h);
      return absl::DeadlineExceededError("held by another process");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    release();
    handle_ = std::exchange(other.handle_, kNoHandle);
  }
  return *this;
}

void FileLock::release() {
  if (handle_ == kNoHandle) return;
  HANDLE h = windows::as_handle(handle_);
  OVERLAPPED whole{};
  ::UnlockFileEx(h, 0, kWholeFile, kWholeFile, &whole);
  ::CloseHandle(h);
  handle_ = kNoHandle;
}

}  // namespace anvil::platform
