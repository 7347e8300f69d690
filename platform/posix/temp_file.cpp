#include "platform/temp_file.hpp"

#include <absl/strings/str_cat.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <random>
#include <string>
#include <utility>

#include "platform/posix/system_error.hpp"

namespace anvil::platform {

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

// A temporary folder: its parent's and its own descriptors, its name in the parent, and how many files
// ("0", "1", ...) have been made in it.
struct FolderSlot {
  std::atomic<int> state{kFree};
  std::atomic<int> files{0};
  int parent_fd = -1;
  int fd = -1;
  char name[NAME_MAX + 1];
};
std::array<FolderSlot, 2> folder_slots;

// "<n>" in decimal, without allocating (a signal handler calls it).
void decimal_name(int n, char (&out)[16]) {
  char digits[16];
  int count = 0;
  do {
    digits[count++] = static_cast<char>('0' + n % 10);
    n /= 10;
  } while (n > 0 && count < 15);
  for (int i = 0; i < count; ++i) out[i] = digits[count - 1 - i];
  out[count] = '\0';
}

// Unlinks the files made in the folder and the folder (async-signal-safe).
void remove_temp_folder(const FolderSlot& slot) {
  int files = slot.files.load(std::memory_order_acquire);
  char name[16];
  for (int i = 0; i < files; ++i) {
    decimal_name(i, name);
    ::unlinkat(slot.fd, name, 0);
  }
  ::unlinkat(slot.parent_fd, slot.name, AT_REMOVEDIR);
}

extern "C" void remove_temporaries_and_die(int sig) {
  int saved = errno;
  for (Slot& slot : slots) {
    int state;
    while ((state = slot.state.load(std::memory_order_acquire)) == kBusy) {
    }
    if (state == kActive) ::unlink(slot.path);
  }
  for (FolderSlot& slot : folder_slots) {
    int state;
    while ((state = slot.state.load(std::memory_order_acquire)) == kBusy) {
    }
    if (state == kActive) remove_temp_folder(slot);
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

absl::Status TempFile::rename_to(const std::string& target) {
  if (slot_ < 0) return errno_status(ENOENT);
  BlockSignals block;
  Slot& slot = slots[slot_];
  slot.state.store(kBusy, std::memory_order_release);
  if (::rename(path_.c_str(), target.c_str()) != 0) {
    int error = errno;
    slot.state.store(kActive, std::memory_order_release);
    return errno_status(error);
  }
  slot.state.store(kFree, std::memory_order_release);
  slot_ = -1;
  return absl::OkStatus();
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

absl::StatusOr<TempFolder> TempFolder::create(NativeHandle parent, std::string_view prefix) {
  if (prefix.size() + 6 > NAME_MAX) return absl::InvalidArgumentError(std::strerror(ENAMETOOLONG));
  install_handlers();
  BlockSignals block;
  for (std::size_t i = 0; i < folder_slots.size(); ++i) {
    int expected = kFree;
    if (!folder_slots[i].state.compare_exchange_strong(expected, kBusy, std::memory_order_acq_rel)) continue;
    FolderSlot& slot = folder_slots[i];
    auto fail = [&](int error) {
      if (slot.parent_fd >= 0) ::close(slot.parent_fd);
      slot.parent_fd = -1;
      slot.state.store(kFree, std::memory_order_release);
      return absl::InternalError(std::strerror(error));
    };
    slot.files.store(0, std::memory_order_release);
    slot.parent_fd = ::fcntl(static_cast<int>(parent), F_DUPFD_CLOEXEC, 0);
    if (slot.parent_fd < 0) return fail(errno);
    std::random_device random;
    static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
    int made = -1;
    for (int attempt = 0; attempt < 100 && made != 0; ++attempt) {
      std::string name(prefix);
      for (int k = 0; k < 6; ++k) name += kLetters[random() % (sizeof(kLetters) - 1)];
      std::memcpy(slot.name, name.c_str(), name.size() + 1);
      made = ::mkdirat(slot.parent_fd, slot.name, 0700);
      if (made != 0 && errno != EEXIST) return fail(errno);
    }
    if (made != 0) return fail(EEXIST);
    slot.fd = ::openat(slot.parent_fd, slot.name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
    if (slot.fd < 0) {
      int error = errno;
      ::unlinkat(slot.parent_fd, slot.name, AT_REMOVEDIR);
      return fail(error);
    }
    slot.state.store(kActive, std::memory_order_release);
    TempFolder folder;
    folder.slot_ = static_cast<int>(i);
    folder.parent_ = slot.parent_fd;
    folder.handle_ = slot.fd;
    folder.name_ = slot.name;
    return folder;
  }
  return absl::InternalError("too many temporary folders at once");
}

absl::StatusOr<NativeHandle> TempFolder::create_file(std::string& name) {
  if (slot_ < 0) return absl::FailedPreconditionError("no temporary folder");
  char text[16];
  decimal_name(files_, text);
  // Counted before it exists: a signal meanwhile unlinks a name that may not be there yet.
  folder_slots[slot_].files.store(++files_, std::memory_order_release);
  int fd = ::openat(static_cast<int>(handle_), text, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
  if (fd < 0) return absl::InternalError(std::strerror(errno));
  name = text;
  return fd;
}

void TempFolder::remove() {
  if (slot_ < 0) return;
  BlockSignals block;
  FolderSlot& slot = folder_slots[slot_];
  slot.state.store(kBusy, std::memory_order_release);
  remove_temp_folder(slot);
  ::close(slot.fd);
  ::close(slot.parent_fd);
  slot.fd = slot.parent_fd = -1;
  slot.state.store(kFree, std::memory_order_release);
  slot_ = -1;
  handle_ = parent_ = kNoHandle;
}

}  // namespace anvil::platform
