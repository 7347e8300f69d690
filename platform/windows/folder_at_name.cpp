// platform/folder_at_name.hpp on Windows: MoveFileExW replaces no folder, so an empty folder at the name
// (not a reparse point: a junction or a symbolic link is refused, never followed) is removed first.
#include "platform/folder_at_name.hpp"

#include <absl/strings/str_cat.h>

#include "platform/windows/system.hpp"

namespace anvil::platform {

absl::Status put_folder_at(const std::string& from, const std::string& to) {
  const std::wstring target = windows::wide(to);
  const DWORD attributes = ::GetFileAttributesW(target.c_str());
  if (attributes != INVALID_FILE_ATTRIBUTES) {
    if ((attributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0 || (attributes & FILE_ATTRIBUTE_DIRECTORY) == 0)
      return absl::FailedPreconditionError(
          absl::StrCat(to, ": is a link or a file, not a folder: the copy is not written through it"));
    if (!::RemoveDirectoryW(target.c_str()))
      return absl::FailedPreconditionError(absl::StrCat(to, ": not empty: the copy is written into a new folder"));
  }
  if (!::MoveFileExW(windows::wide(from).c_str(), target.c_str(), MOVEFILE_WRITE_THROUGH))
    return absl::InternalError(
        absl::StrCat(to, ": cannot put the folder there: ", windows::error_status(::GetLastError()).message()));
  return absl::OkStatus();
}

}  // namespace anvil::platform
