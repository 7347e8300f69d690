#include "writer/temp_file.hpp"

#include <absl/strings/str_cat.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <utility>

namespace anvil {

namespace {

constexpr std::array kSignals = {SIGINT, SIGTERM, SIGHUP};

// A slot's state. kBusy: a thread is creating, renaming or removing its file (with the signals blocked
// in that thread); the handler waits it out rather than read a path that is being written.
enum : int { kFree, kBusy, kActive };

struct Slot {
  std::atomic<int> state{kFree};
  char path[PATH_MAX];
};
static_assert(std::atomic<int>::is_always_lock_free, "the signal handler reads the slot states");

// A command has at most two temporaries at once; a few spare slots cost nothing.
std::array<Slot, 8> slots;

extern "C" void remove_temporaries_and_die(int sig) {
  int saved = errno;
  for (Slot& slot : slots) {
    int state;
    while ((state = slot.state.load(std::memory_order_acquire)) == kBusy) {
    }
    if (state == kActive) ::unlink(slot.path);
  }
  // The default disposition, then the same signal: it is blocked while this handler runs (sa_mask), so
  // it arrives as the handler returns and the process dies of it.
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigemptyset(&dfl.sa_mask);
  ::sigaction(sig, &dfl, nullptr);
  ::raise(sig);
  errno = saved;
}

void install_handlers() {
  static std::once_flag once;
  std::call_once(once, [] {
    struct sigaction action {};
    action.sa_handler = remove_temporaries_and_die;
    ::sigemptyset(&action.sa_mask);
    for (int sig : kSignals) ::sigaddset(&action.sa_mask, sig);
    for (int sig : kSignals) {
      struct sigaction old {};
      if (::sigaction(sig, nullptr, &old) == 0 && old.sa_handler == SIG_IGN) continue;
      ::sigaction(sig, &action, nullptr);
    }
  });
}

// Blocks the three signals in this thread for one step on a slot.
class BlockSignals {
 public:
  BlockSignals() {
    sigset_t set;
    ::sigemptyset(&set);
    for (int sig : kSignals) ::sigaddset(&set, sig);
    ::pthread_sigmask(SIG_BLOCK, &set, &old_);
  }
  ~BlockSignals() { ::pthread_sigmask(SIG_SETMASK, &old_, nullptr); }
  BlockSignals(const BlockSignals&) = delete;
  BlockSignals& operator=(const BlockSignals&) = delete;

 private:
  sigset_t old_;
};

}  // namespace

absl::StatusOr<TempFile> TempFile::create(const std::string& pattern) {
  if (pattern.size() >= PATH_MAX)
    return absl::InvalidArgumentError(absl::StrCat(pattern, ": ", std::strerror(ENAMETOOLONG)));
  install_handlers();
  BlockSignals block;
  for (std::size_t i = 0; i < slots.size(); ++i) {
    int expected = kFree;
    if (!slots[i].state.compare_exchange_strong(expected, kBusy, std::memory_order_acq_rel)) continue;
    Slot& slot = slots[i];
    std::memcpy(slot.path, pattern.c_str(), pattern.size() + 1);
    int fd = ::mkostemp(slot.path, O_CLOEXEC);
    if (fd < 0) {
      int error = errno;
      slot.state.store(kFree, std::memory_order_release);
      return absl::InternalError(std::strerror(error));
    }
    slot.state.store(kActive, std::memory_order_release);
    return TempFile(static_cast<int>(i), fd, slot.path);
  }
  return absl::InternalError("too many temporary files at once");
}

TempFile::TempFile(TempFile&& other) noexcept
    : slot_(std::exchange(other.slot_, -1)), fd_(std::exchange(other.fd_, -1)), path_(std::move(other.path_)) {}

TempFile& TempFile::operator=(TempFile&& other) noexcept {
  if (this != &other) {
    remove();
    slot_ = std::exchange(other.slot_, -1);
    fd_ = std::exchange(other.fd_, -1);
    path_ = std::move(other.path_);
  }
  return *this;
}

int TempFile::rename_to(const std::string& target) {
  if (slot_ < 0) return ENOENT;
  BlockSignals block;
  Slot& slot = slots[slot_];
  slot.state.store(kBusy, std::memory_order_release);
  if (::rename(path_.c_str(), target.c_str()) != 0) {
    int error = errno;
    slot.state.store(kActive, std::memory_order_release);
    return error;
  }
  slot.state.store(kFree, std::memory_order_release);
  slot_ = -1;
  return 0;
}

void TempFile::remove() {
  if (slot_ < 0) return;
  BlockSignals block;
  Slot& slot = slots[slot_];
  slot.state.store(kBusy, std::memory_order_release);
  ::unlink(path_.c_str());
  slot.state.store(kFree, std::memory_order_release);
  slot_ = -1;
}

}  // namespace anvil
