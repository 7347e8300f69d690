// platform/folder_at_name.hpp on POSIX: rename(2) of a folder, which replaces only an empty folder at the
// name and fails on a link or a file there (ENOTDIR) instead of following it.
#include "platform/folder_at_name.hpp"

#include <absl/strings/str_cat.h>
#include <stdio.h>

#include <cerrno>
#include <cstring>

namespace anvil::platform {

absl::Status put_folder_at(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) == 0) return absl::OkStatus();
  const int error = errno;
  if (error == ENOTDIR)
    return absl::FailedPreconditionError(
        absl::StrCat(to, ": is a link or a file, not a folder: the copy is not written through it"));
  if (error == ENOTEMPTY || error == EEXIST)
    return absl::FailedPreconditionError(absl::StrCat(to, ": not empty: the copy is written into a new folder"));
  return absl::InternalError(absl::StrCat(to, ": cannot put the folder there: ", std::strerror(error)));
}

}  // namespace anvil::platform
