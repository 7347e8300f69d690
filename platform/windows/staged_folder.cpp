#include "platform/staged_folder.hpp"

#include <absl/strings/str_cat.h>

#include <filesystem>
#include <utility>

#include "platform/paths.hpp"
#include "platform/windows/system.hpp"

namespace anvil::platform {

using windows::as_handle;
using windows::child;
using windows::wide;

namespace {

absl::Status file_error(const std::string& path, const char* what, const absl::Status& why) {
  return absl::InternalError(absl::StrCat(path, ": ", what, ": ", why.message()));
}

// Writes all of `bytes` through `h` and flushes it to the disk.
absl::Status write_all(HANDLE h, std::span<const std::uint8_t> bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    const auto ask = static_cast<DWORD>(std::min<std::size_t>(bytes.size() - done, std::size_t{1} << 30));
    DWORD n = 0;
    if (!::WriteFile(h, bytes.data() + done, ask, &n, nullptr)) return windows::last_error_status();
    done += n;
  }
  if (!::FlushFileBuffers(h)) return windows::last_error_status();
  return absl::OkStatus();
}

// The folder the handle names now, for the names inside it: held open without sharing deletion, it
// cannot be renamed or replaced meanwhile, so the path stays the one opened.
std::wstring folder_path(NativeHandle folder) { return windows::final_path(as_handle(folder)); }

}  // namespace

absl::StatusOr<StagedFolder> StagedFolder::open(const std::string& dir) {
  StagedFolder out;
  out.dir_ = dir;
  if (auto s = out.create_missing(); !s.ok()) return s;
  // A link given as `dir` is followed (the user named it); no deletion shared: the folder stays where it is.
  HANDLE h =
      ::CreateFileW(wide(dir).c_str(), FILE_LIST_DIRECTORY | FILE_TRAVERSE | FILE_ADD_FILE | FILE_ADD_SUBDIRECTORY,
                    FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (h == INVALID_HANDLE_VALUE) return file_error(dir, "cannot open the folder", windows::last_error_status());
  out.folder_ = reinterpret_cast<NativeHandle>(h);
  BY_HANDLE_FILE_INFORMATION info{};
  if (!::GetFileInformationByHandle(h, &info) || !(info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY))
    return absl::InvalidArgumentError(absl::StrCat(dir, ": not a folder"));
  if (auto s = out.make_stage(); !s.ok()) return s;
  return out;
}

void StagedFolder::discard() {
  stage_.remove();
  staged_.clear();
  if (folder_ != kNoHandle) ::CloseHandle(as_handle(folder_));
  folder_ = kNoHandle;
  // RemoveDirectoryW removes only an empty folder: one that something else put a file in meanwhile stays.
  for (const std::string& dir : created_) ::RemoveDirectoryW(wide(dir).c_str());
  created_.clear();
}

std::string StagedFolder::path(const std::string& name) const { return utf8_of(path_of(dir_) / path_of(name)); }

absl::Status StagedFolder::check(const std::string& name, bool no_clobber) const {
  // The attributes of the name itself: a reparse point (a junction, a symbolic link) is not followed.
  const DWORD attributes = ::GetFileAttributesW(child(folder_path(folder_), wide(name)).c_str());
  if (attributes == INVALID_FILE_ATTRIBUTES) {
    const DWORD error = ::GetLastError();
    if (error == ERROR_FILE_NOT_FOUND) return absl::OkStatus();
    return file_error(path(name), "cannot check the name", windows::error_status(error));
  }
  return taken_name(name, (attributes & FILE_ATTRIBUTE_DIRECTORY) && !(attributes & FILE_ATTRIBUTE_REPARSE_POINT),
                    no_clobber);
}

absl::Status StagedFolder::stage(const std::string& name, std::span<const std::uint8_t> bytes) {
  std::string staged;
  auto handle = stage_.create_file(staged);
  if (!handle.ok()) return absl::InternalError(absl::StrCat(path(name), ": cannot write: ", handle.status().message()));
  absl::Status written = write_all(as_handle(*handle), bytes);
  if (!::CloseHandle(as_handle(*handle)) && written.ok()) written = windows::last_error_status();
  if (!written.ok()) return file_error(path(name), "cannot write", written);
  staged_.emplace_back(std::move(staged), name);
  return absl::OkStatus();
}

absl::Status StagedFolder::commit(bool no_clobber) {
  if (folder_ == kNoHandle || !stage_.held()) return absl::FailedPreconditionError("no folder open");
  const std::wstring folder = folder_path(folder_);
  const std::wstring stage = child(folder, wide(stage_.name()));
  for (const auto& [staged, name] : staged_) {
    const std::wstring target = child(folder, wide(name));
    // A reparse point at the name is removed itself (the link, never what it leads to), then the file
    // takes the name: the output is never written through a junction or a link.
    const DWORD attributes = ::GetFileAttributesW(target.c_str());
    if (!no_clobber && attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT)) {
      const bool removed =
          (attributes & FILE_ATTRIBUTE_DIRECTORY) ? ::RemoveDirectoryW(target.c_str()) : ::DeleteFileW(target.c_str());
      if (!removed) return file_error(path(name), "cannot write", windows::last_error_status());
    }
    const DWORD flags = MOVEFILE_WRITE_THROUGH | (no_clobber ? 0 : MOVEFILE_REPLACE_EXISTING);
    if (!::MoveFileExW(child(stage, wide(staged)).c_str(), target.c_str(), flags))
      return file_error(path(name), "cannot write", windows::last_error_status());
  }
  stage_.remove();
  staged_.clear();
  created_.clear();
  ::CloseHandle(as_handle(folder_));
  folder_ = kNoHandle;
  return absl::OkStatus();
}

}  // namespace anvil::platform
