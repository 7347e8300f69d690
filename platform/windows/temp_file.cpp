#include "platform/temp_file.hpp"

#include <absl/strings/str_cat.h>

#include <array>
#include <mutex>
#include <random>
#include <string>
#include <utility>

#include "platform/windows/system.hpp"

namespace anvil::platform {

using windows::child;
using windows::last_error_status;
using windows::wide;

namespace {

// The registry of temporaries. Windows runs a console control handler on a thread of its own, not inside
// an interrupted thread, so a plain mutex guards the table: the handler takes it and never gives it
// back, since the process ends as the handler returns; a thread that would rename a temporary meanwhile
// waits for an end that comes first.
std::mutex registry;

struct Slot {
  bool active = false;
  std::wstring path;
};
std::array<Slot, 8> slots;

struct FolderSlot {
  bool active = false;
  std::wstring path;  // the folder, whole
  int files = 0;      // "0", "1", ... made in it
};
std::array<FolderSlot, 2> folder_slots;

std::wstring decimal(int n) { return std::to_wstring(n); }

void remove_temp_folder(const FolderSlot& slot) {
  for (int i = 0; i < slot.files; ++i) ::DeleteFileW(child(slot.path, decimal(i)).c_str());
  ::RemoveDirectoryW(slot.path.c_str());
}

// Ctrl+C, Ctrl+Break, the console closed, the user logging off, the system shutting down: every
// temporary goes, then FALSE hands the event on to the default handler, which ends the process as it
// would have (STATUS_CONTROL_C_EXIT). A file still open (being written) is marked for deletion and goes
// when the ending process closes it: every handle of ours allows that (FILE_SHARE_DELETE).
BOOL WINAPI remove_temporaries(DWORD) {
  registry.lock();  // never unlocked: the process is ending
  for (const Slot& slot : slots)
    if (slot.active) ::DeleteFileW(slot.path.c_str());
  for (const FolderSlot& slot : folder_slots)
    if (slot.active) remove_temp_folder(slot);
  return FALSE;
}

void install_handler() {
  static std::once_flag once;
  std::call_once(once, [] { ::SetConsoleCtrlHandler(remove_temporaries, TRUE); });
}

std::string random_letters(int count) {
  static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
  std::random_device random;
  std::string out;
  for (int k = 0; k < count; ++k) out += kLetters[random() % (sizeof(kLetters) - 1)];
  return out;
}

}  // namespace

void windows::remove_temporaries_on_interrupt() { install_handler(); }

absl::StatusOr<TempFile> TempFile::create(const std::string& pattern) {
  if (pattern.size() < 6 || pattern.compare(pattern.size() - 6, 6, "XXXXXX") != 0)
    return absl::InvalidArgumentError("a temporary's pattern ends in XXXXXX");
  install_handler();
  std::lock_guard lock(registry);
  for (std::size_t i = 0; i < slots.size(); ++i) {
    Slot& slot = slots[i];
    if (slot.active) continue;
    for (int attempt = 0; attempt < 100; ++attempt) {
      std::string path = pattern.substr(0, pattern.size() - 6) + random_letters(6);
      std::wstring name = wide(path);
      // CREATE_NEW: never an existing file, nor through a link. Shared for reading (the output is read
      // back through a second handle) and for deletion (by the interrupt handler while it is written).
      HANDLE h = ::CreateFileW(name.c_str(), GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_DELETE, nullptr,
                               CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr);
      if (h == INVALID_HANDLE_VALUE) {
        if (::GetLastError() == ERROR_FILE_EXISTS) continue;
        return last_error_status();
      }
      slot.active = true;
      slot.path = std::move(name);
      return TempFile(static_cast<int>(i), reinterpret_cast<NativeHandle>(h), std::move(path));
    }
    return absl::AlreadyExistsError("no free temporary name");
  }
  return absl::InternalError("too many temporary files at once");
}

namespace {

// Replaces `target` by `from`: ReplaceFileW keeps what the replaced file carried (its attributes, its
// ACL, its creation time, its alternate streams); a read-only target loses its attribute for the step
// only. A new name is a rename, written through to the disk.
absl::Status replace(const std::wstring& from, const std::wstring& target) {
  const DWORD attributes = ::GetFileAttributesW(target.c_str());
  if (attributes == INVALID_FILE_ATTRIBUTES) {
    if (::MoveFileExW(from.c_str(), target.c_str(), MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH)) return {};
    return last_error_status();
  }
  const bool read_only = (attributes & FILE_ATTRIBUTE_READONLY) != 0;
  if (read_only) ::SetFileAttributesW(target.c_str(), attributes & ~FILE_ATTRIBUTE_READONLY);
  const bool replaced =
      ::ReplaceFileW(target.c_str(), from.c_str(), nullptr, REPLACEFILE_IGNORE_MERGE_ERRORS, nullptr, nullptr) != 0;
  const DWORD error = ::GetLastError();
  if (read_only) ::SetFileAttributesW(target.c_str(), attributes);
  if (replaced) return {};
  return windows::error_status(error);
}

}  // namespace

absl::Status TempFile::rename_to(const std::string& target) {
  if (slot_ < 0) return absl::NotFoundError("No such file or directory");
  std::lock_guard lock(registry);
  Slot& slot = slots[slot_];
  if (auto s = replace(slot.path, wide(target)); !s.ok()) return s;
  slot.active = false;
  slot_ = -1;
  return absl::OkStatus();
}

void TempFile::remove() {
  if (slot_ < 0) return;
  std::lock_guard lock(registry);
  Slot& slot = slots[slot_];
  ::DeleteFileW(slot.path.c_str());
  slot.active = false;
  slot_ = -1;
}

absl::StatusOr<TempFolder> TempFolder::create(NativeHandle parent, std::string_view prefix) {
  const std::wstring parent_path = windows::final_path(reinterpret_cast<HANDLE>(parent));
  if (parent_path.empty()) return last_error_status();
  install_handler();
  std::lock_guard lock(registry);
  for (std::size_t i = 0; i < folder_slots.size(); ++i) {
    FolderSlot& slot = folder_slots[i];
    if (slot.active) continue;
    for (int attempt = 0; attempt < 100; ++attempt) {
      std::string name = std::string(prefix) + random_letters(6);
      std::wstring path = child(parent_path, wide(name));
      if (!::CreateDirectoryW(path.c_str(), nullptr)) {
        if (::GetLastError() == ERROR_ALREADY_EXISTS) continue;
        return last_error_status();
      }
      // Held open (the parent cannot be moved meanwhile: our handle on it shares no deletion), shared for
      // deletion so that the interrupt handler can remove it.
      HANDLE h =
          ::CreateFileW(path.c_str(), FILE_LIST_DIRECTORY, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                        nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
      if (h == INVALID_HANDLE_VALUE) {
        absl::Status s = last_error_status();
        ::RemoveDirectoryW(path.c_str());
        return s;
      }
      slot.active = true;
      slot.path = std::move(path);
      slot.files = 0;
      TempFolder folder;
      folder.slot_ = static_cast<int>(i);
      folder.parent_ = parent;
      folder.handle_ = reinterpret_cast<NativeHandle>(h);
      folder.name_ = std::move(name);
      return folder;
    }
    return absl::AlreadyExistsError("no free temporary name");
  }
  return absl::InternalError("too many temporary folders at once");
}

absl::StatusOr<NativeHandle> TempFolder::create_file(std::string& name) {
  if (slot_ < 0) return absl::FailedPreconditionError("no temporary folder");
  std::wstring path;
  {
    std::lock_guard lock(registry);
    FolderSlot& slot = folder_slots[slot_];
    // Counted before it exists: the handler deletes a name that may not be there yet.
    slot.files = ++files_;
    path = child(slot.path, decimal(files_ - 1));
  }
  HANDLE h = ::CreateFileW(path.c_str(), GENERIC_WRITE, FILE_SHARE_DELETE, nullptr, CREATE_NEW,
                           FILE_ATTRIBUTE_NORMAL | FILE_FLAG_OPEN_REPARSE_POINT, nullptr);
  if (h == INVALID_HANDLE_VALUE) return last_error_status();
  name = std::to_string(files_ - 1);
  return reinterpret_cast<NativeHandle>(h);
}

void TempFolder::remove() {
  if (slot_ < 0) return;
  std::lock_guard lock(registry);
  FolderSlot& slot = folder_slots[slot_];
  ::CloseHandle(reinterpret_cast<HANDLE>(handle_));
  remove_temp_folder(slot);
  slot.active = false;
  slot_ = -1;
  handle_ = parent_ = kNoHandle;
}

}  // namespace anvil::platform
