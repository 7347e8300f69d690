#include "platform/staged_folder.hpp"

#include <absl/strings/str_cat.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <utility>

namespace anvil::platform {

namespace {

absl::Status file_error(const std::string& path, const char* what, int error) {
  return absl::InternalError(absl::StrCat(path, ": ", what, ": ", std::strerror(error)));
}

// Writes all of `bytes` to `fd` and syncs it; the errno value on failure.
int write_all(int fd, std::span<const std::uint8_t> bytes) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    ssize_t n = ::write(fd, bytes.data() + done, bytes.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return n < 0 ? errno : EIO;
    done += static_cast<std::size_t>(n);
  }
  return ::fsync(fd) == 0 ? 0 : errno;
}

// rename(2) without replacing: renameat2's RENAME_NOREPLACE, or where the file system lacks it a hard
// link (which fails on an existing name) and the unlink of the staged name.
int rename_no_replace(int from_dir, const char* from, int to_dir, const char* to) {
  if (::renameat2(from_dir, from, to_dir, to, RENAME_NOREPLACE) == 0) return 0;
  if (errno != EINVAL && errno != ENOSYS) return errno;
  if (::linkat(from_dir, from, to_dir, to, 0) != 0) return errno;
  ::unlinkat(from_dir, from, 0);
  return 0;
}

}  // namespace

absl::StatusOr<StagedFolder> StagedFolder::open(const std::string& dir) {
  StagedFolder out;
  out.dir_ = dir;
  if (auto s = out.create_missing(); !s.ok()) return s;
  int fd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  out.folder_ = fd;
  if (fd < 0) {
    int error = errno;
    if (error == ENOTDIR) return absl::InvalidArgumentError(absl::StrCat(dir, ": not a folder"));
    return file_error(dir, "cannot open the folder", error);
  }
  if (auto s = out.make_stage(); !s.ok()) return s;
  return out;
}

void StagedFolder::discard() {
  stage_.remove();
  staged_.clear();
  if (folder_ >= 0) ::close(static_cast<int>(folder_));
  folder_ = kNoHandle;
  // rmdir(2) removes only an empty folder: one that something else put a file in meanwhile stays.
  for (const std::string& dir : created_) ::rmdir(dir.c_str());
  created_.clear();
}

std::string StagedFolder::path(const std::string& name) const { return (std::filesystem::path(dir_) / name).string(); }

absl::Status StagedFolder::check(const std::string& name, bool no_clobber) const {
  struct stat st {};
  if (::fstatat(static_cast<int>(folder_), name.c_str(), &st, AT_SYMLINK_NOFOLLOW) != 0) {
    int error = errno;
    if (error == ENOENT) return absl::OkStatus();
    return file_error(path(name), "cannot check the name", error);
  }
  return taken_name(name, S_ISDIR(st.st_mode), no_clobber);
}

absl::Status StagedFolder::stage(const std::string& name, std::span<const std::uint8_t> bytes) {
  std::string staged;
  auto fd = stage_.create_file(staged);
  if (!fd.ok()) return absl::InternalError(absl::StrCat(path(name), ": cannot write: ", fd.status().message()));
  int error = write_all(static_cast<int>(*fd), bytes);
  if (::close(static_cast<int>(*fd)) != 0 && error == 0) error = errno;
  if (error != 0) return file_error(path(name), "cannot write", error);
  staged_.emplace_back(std::move(staged), name);
  return absl::OkStatus();
}

absl::Status StagedFolder::commit(bool no_clobber) {
  if (folder_ < 0 || !stage_.held()) return absl::FailedPreconditionError("no folder open");
  for (const auto& [staged, name] : staged_) {
    const int from = static_cast<int>(stage_.handle()), to = static_cast<int>(folder_);
    int error = no_clobber ? rename_no_replace(from, staged.c_str(), to, name.c_str())
                           : (::renameat(from, staged.c_str(), to, name.c_str()) == 0 ? 0 : errno);
    if (error != 0) return file_error(path(name), "cannot write", error);
  }
  ::fsync(
      static_cast<int>(folder_));  // the renames made durable (best effort: some file systems refuse to sync a folder)
  stage_.remove();
  staged_.clear();
  created_.clear();
  ::close(static_cast<int>(folder_));
  folder_ = kNoHandle;
  return absl::OkStatus();
}

}  // namespace anvil::platform
