// platform/private_file.hpp on POSIX: mkdtemp (mode 0700), then the file created in it with O_EXCL and
// O_NOFOLLOW, mode 0600 whatever the umask.
#include "platform/private_file.hpp"

#include <absl/strings/str_cat.h>
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <vector>

namespace anvil::platform {

absl::StatusOr<PrivateFile> PrivateFile::create(std::string_view prefix, std::string_view name,
                                                std::string_view contents) {
  std::error_code ec;
  const std::filesystem::path temp = std::filesystem::temp_directory_path(ec);
  if (ec) return absl::UnavailableError(absl::StrCat("no temporary folder: ", ec.message()));
  std::string pattern = (temp / (std::string(prefix) + "XXXXXX")).string();
  std::vector<char> folder(pattern.begin(), pattern.end());
  folder.push_back('\0');
  if (::mkdtemp(folder.data()) == nullptr)
    return absl::UnavailableError(
        absl::StrCat("cannot create a folder in ", temp.string(), ": ", std::strerror(errno)));
  PrivateFile file;
  file.folder_ = folder.data();
  const std::string path = (std::filesystem::path(file.folder_) / name).string();
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0) return absl::UnavailableError(absl::StrCat("cannot create ", path, ": ", std::strerror(errno)));
  file.path_ = path;
  for (std::size_t done = 0; done < contents.size();) {
    const ssize_t n = ::write(fd, contents.data() + done, contents.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) {
      const int error = errno;
      ::close(fd);
      return absl::UnavailableError(absl::StrCat("cannot write ", path, ": ", std::strerror(error)));
    }
    done += static_cast<std::size_t>(n);
  }
  if (::close(fd) != 0) return absl::UnavailableError(absl::StrCat("cannot write ", path, ": ", std::strerror(errno)));
  return file;
}

void PrivateFile::remove() {
  if (!path_.empty()) ::unlink(path_.c_str());
  if (!folder_.empty()) ::rmdir(folder_.c_str());
  path_.clear();
  folder_.clear();
}

}  // namespace anvil::platform
