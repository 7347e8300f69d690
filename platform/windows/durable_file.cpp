// platform/durable_file.hpp on Windows: FlushFileBuffers for a file's bytes, MoveFileExW with
// MOVEFILE_WRITE_THROUGH for a rename that is on the disk when it returns.
#include "platform/durable_file.hpp"

#include <absl/strings/str_cat.h>
#include <io.h>

#include "platform/windows/system.hpp"

namespace anvil::platform {

namespace {

// `path`: `what`: the system's reason, keeping the status's code (a full disk is ResourceExhausted).
absl::Status durable_step_failed(const std::string& path, const char* what, DWORD error) {
  const absl::Status reason = windows::error_status(error);
  return absl::Status(reason.code(), absl::StrCat(path, ": ", what, ": ", reason.message()));
}

}  // namespace

absl::Status sync_file(std::FILE* file, const std::string& path) {
  if (std::fflush(file) != 0)
    return absl::InternalError(absl::StrCat(path, ": cannot write (the disk full, or the file gone?)"));
  HANDLE h = reinterpret_cast<HANDLE>(::_get_osfhandle(::_fileno(file)));
  if (h == INVALID_HANDLE_VALUE || !::FlushFileBuffers(h))
    return durable_step_failed(path, "cannot sync", ::GetLastError());
  return absl::OkStatus();
}

// Nothing to do: NTFS journals its metadata, so a folder's entries (a file made, renamed or removed) are
// as durable as the steps that made them, and MOVEFILE_WRITE_THROUGH (rename_over) waits for the rename.
// Windows has no call that syncs a folder: FlushFileBuffers refuses a folder's handle opened without
// write access, and a folder cannot be opened for writing.
absl::Status sync_folder(const std::string&) { return absl::OkStatus(); }

absl::Status rename_over(const std::string& from, const std::string& to) {
  if (!::MoveFileExW(windows::wide(from).c_str(), windows::wide(to).c_str(),
                     MOVEFILE_REPLACE_EXISTING | MOVEFILE_WRITE_THROUGH))
    return durable_step_failed(to, "cannot rename the new file over it", ::GetLastError());
  return absl::OkStatus();
}

absl::Status remove_file(const std::string& path) {
  if (::DeleteFileW(windows::wide(path).c_str())) return absl::OkStatus();
  const DWORD error = ::GetLastError();
  if (error == ERROR_FILE_NOT_FOUND || error == ERROR_PATH_NOT_FOUND) return absl::OkStatus();
  return durable_step_failed(path, "cannot remove", error);
}

// Not read-only, and this user may open it for writing (its ACL): a file another program holds open
// without sharing it is still writable by this measure (the write then says why it cannot).
bool writable(const std::string& path) {
  const std::wstring name = windows::wide(path);
  const DWORD attributes = ::GetFileAttributesW(name.c_str());
  if (attributes == INVALID_FILE_ATTRIBUTES) return true;  // nothing there yet: made new
  if ((attributes & FILE_ATTRIBUTE_READONLY) != 0) return false;
  HANDLE h = ::CreateFileW(name.c_str(), GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, nullptr,
                           OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (h == INVALID_HANDLE_VALUE) return ::GetLastError() != ERROR_ACCESS_DENIED;
  ::CloseHandle(h);
  return true;
}

}  // namespace anvil::platform
