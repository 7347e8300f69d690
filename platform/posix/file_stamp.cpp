#include "platform/file_stamp.hpp"

#include <absl/strings/str_cat.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

namespace anvil::platform {

absl::StatusOr<FileStamp> file_stamp(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return absl::InvalidArgumentError(absl::StrCat(path, ": ", std::strerror(errno)));
  return FileStamp{static_cast<std::uint64_t>(st.st_size),
                   static_cast<std::int64_t>(st.st_mtim.tv_sec) * 1000000000 + st.st_mtim.tv_nsec};
}

}  // namespace anvil::platform
