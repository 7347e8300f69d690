#include "platform/durable_file.hpp"

#include <absl/strings/str_cat.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace anvil::platform {

namespace {

absl::Status failed(const std::string& path, const char* what, int e) {
  std::string message = absl::StrCat(path, ": ", what, ": ", std::strerror(e));
  if (e == ENOSPC || e == EDQUOT || e == EFBIG) return absl::ResourceExhaustedError(message);
  return absl::InternalError(message);
}

}  // namespace

absl::Status sync_file(std::FILE* file, const std::string& path) {
  if (std::fflush(file) != 0) return failed(path, "cannot write", errno);
  if (::fsync(::fileno(file)) != 0) return failed(path, "cannot sync", errno);
  return absl::OkStatus();
}

absl::Status sync_folder(const std::string& dir) {
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return failed(dir, "cannot open the folder", errno);
  // Some file systems refuse to sync a folder (EINVAL): their entries are then as durable as they get.
  int rc = ::fsync(fd);
  int e = errno;
  ::close(fd);
  if (rc != 0 && e != EINVAL && e != EROFS) return failed(dir, "cannot sync the folder", e);
  return absl::OkStatus();
}

absl::Status rename_over(const std::string& from, const std::string& to) {
  if (::rename(from.c_str(), to.c_str()) != 0) return failed(to, "cannot rename the new file over it", errno);
  return absl::OkStatus();
}

absl::Status remove_file(const std::string& path) {
  if (::unlink(path.c_str()) != 0 && errno != ENOENT) return failed(path, "cannot remove", errno);
  return absl::OkStatus();
}

bool writable(const std::string& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return true;  // nothing there yet: made new
  return (st.st_mode & (S_IWUSR | S_IWGRP | S_IWOTH)) != 0 && ::access(path.c_str(), W_OK) == 0;
}

}  // namespace anvil::platform
