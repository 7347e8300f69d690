#include "platform/file_lock.hpp"

#include <absl/strings/str_cat.h>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <thread>

namespace anvil::platform {

absl::StatusOr<FileLock> FileLock::acquire(const std::string& path, std::chrono::milliseconds wait) {
  int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
  if (fd < 0) return absl::UnavailableError(absl::StrCat("cannot open the lock: ", std::strerror(errno)));
  const auto deadline = std::chrono::steady_clock::now() + wait;
  // Polled rather than blocked on, so that the wait is bounded without a signal to interrupt flock.
  for (;;) {
    if (::flock(fd, LOCK_EX | LOCK_NB) == 0) return FileLock(static_cast<NativeHandle>(fd));
    if (errno != EWOULDBLOCK && errno != EINTR) {
      int e = errno;
      ::close(fd);
      return absl::UnavailableError(absl::StrCat("cannot lock: ", std::strerror(e)));
    }
    if (std::chrono::steady_clock::now() >= deadline) {
      ::close(fd);
      return absl::DeadlineExceededError("held by another process");
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

FileLock& FileLock::operator=(FileLock&& other) noexcept {
  if (this != &other) {
    release();
    handle_ = other.handle_;
    other.handle_ = kNoHandle;
  }
  return *this;
}

void FileLock::release() {
  if (handle_ == kNoHandle) return;
  ::close(static_cast<int>(handle_));  // closing the last descriptor of the open file lets go of its flock
  handle_ = kNoHandle;
}

}  // namespace anvil::platform
