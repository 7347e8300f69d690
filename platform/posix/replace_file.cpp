#include "platform/replace_file.hpp"

#include <absl/strings/str_cat.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "platform/posix/output_target.hpp"

namespace anvil::platform {

namespace {

// The longest file name a temporary may carry of its target's: the name stays within NAME_MAX (255)
// with the dot and ".anvilrt-tmp-XXXXXX" around it.
constexpr std::size_t kNameKept = 235;

absl::Status cannot_write(const std::string& target, int error) {
  return absl::InternalError(absl::StrCat(target, ": cannot write: ", std::strerror(error)));
}

// The process's umask, which open(2) would apply to a new file; mkostemp makes its file 0600 instead.
// Read once (umask can only be read by setting it), before any file is written.
mode_t creation_mode() {
  static const mode_t mode = [] {
    mode_t mask = ::umask(0);
    ::umask(mask);
    return static_cast<mode_t>(0666 & ~mask);
  }();
  return mode;
}

// The replaced file's owner, group and mode onto the temporary. chown is only allowed to root (and to
// the owner for a group it is in); when it is refused the file stays this user's, without the set-id
// bit that would then name the wrong owner. fchown before fchmod: fchown clears the set-id bits.
void keep_attributes(int fd, const struct stat& old) {
  mode_t mode = old.st_mode & 07777;
  struct stat mine {};
  if (::fstat(fd, &mine) == 0 && (mine.st_uid != old.st_uid || mine.st_gid != old.st_gid) &&
      ::fchown(fd, old.st_uid, old.st_gid) != 0) {
    mode &= ~S_ISUID;
    if (mine.st_gid != old.st_gid && ::fchown(fd, static_cast<uid_t>(-1), old.st_gid) != 0) mode &= ~S_ISGID;
  }
  // A failure leaves the temporary's 0600: never more open than asked.
  ::fchmod(fd, mode);
}

bool read_only(const std::string& path, const struct stat& st) {
  return (st.st_mode & 0222) == 0 || ::faccessat(AT_FDCWD, path.c_str(), W_OK, AT_EACCESS) != 0;
}

// A socket file cannot be open(2)ed: connect to it as a stream.
int connect_socket(const std::string& path) {
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  if (path.size() >= sizeof(address.sun_path)) {
    errno = ENAMETOOLONG;
    return -1;
  }
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return -1;
  if (::connect(fd, reinterpret_cast<const sockaddr*>(&address), sizeof(address)) != 0) {
    int error = errno;
    ::close(fd);
    errno = error;
    return -1;
  }
  return fd;
}

// Makes the rename itself durable (best effort: some file systems refuse to sync a folder).
void sync_folder(const std::string& file) {
  std::filesystem::path folder = std::filesystem::path(file).parent_path();
  int fd = ::open(folder.empty() ? "." : folder.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd < 0) return;
  ::fsync(fd);
  ::close(fd);
}

}  // namespace

absl::Status AtomicFile::open(const std::string& target, const OutputOptions& options) {
  discard();
  target_ = target;
  auto resolved = options.at_name ? resolve_name(target) : resolve_output(target);
  if (!resolved.ok()) return resolved.status();
  using Kind = OutputTarget::Kind;
  if (options.in_place && resolved->kind != Kind::kRegularFile)
    return absl::InvalidArgumentError(absl::StrCat(target, ": --in-place replaces a regular file; this is not one"));
  int fd = -1;
  switch (resolved->kind) {
    case Kind::kDescriptor:
      fd = ::fcntl(resolved->fd, F_DUPFD_CLOEXEC, 0);
      break;
    case Kind::kSpecial:
      fd = S_ISSOCK(resolved->st.st_mode) ? connect_socket(resolved->path)
                                          : ::open(resolved->path.c_str(), O_WRONLY | O_NOCTTY | O_CLOEXEC);
      break;
    case Kind::kNewFile:
    case Kind::kRegularFile: {
      if (resolved->kind == Kind::kRegularFile && options.in_place && !options.force &&
          read_only(resolved->path, resolved->st))
        return absl::InvalidArgumentError(
            absl::StrCat(target, ": the file is read-only (--force replaces it all the same)"));
      std::filesystem::path path = resolved->path;
      std::string name = path.filename().string().substr(0, kNameKept);
      auto temp = TempFile::create((path.parent_path() / ("." + name + ".anvilrt-tmp-XXXXXX")).string());
      if (!temp.ok())
        return absl::InternalError(absl::StrCat(target, ": cannot create a temporary file in ",
                                                path.parent_path().string(), ": ", temp.status().message()));
      temp_ = std::move(*temp);
      final_ = resolved->path;
      fd = static_cast<int>(temp_.handle());
      if (resolved->kind == Kind::kRegularFile)
        keep_attributes(fd, resolved->st);
      else
        ::fchmod(fd, creation_mode());
      break;
    }
  }
  if (fd < 0) return cannot_write(target, errno);
  file_ = ::fdopen(fd, "wb");
  if (file_ == nullptr) {
    int error = errno;
    ::close(fd);
    discard();
    return cannot_write(target, error);
  }
  return absl::OkStatus();
}

absl::Status AtomicFile::commit() {
  if (file_ == nullptr) return absl::FailedPreconditionError("no file open");
  bool ok = std::fflush(file_) == 0 && !std::ferror(file_) && (!temp_.held() || ::fsync(::fileno(file_)) == 0);
  int error = errno;
  if (std::fclose(file_) != 0 && ok) {
    ok = false;
    error = errno;
  }
  file_ = nullptr;
  if (ok && temp_.held()) {
    absl::Status renamed = temp_.rename_to(final_);
    if (!renamed.ok()) {
      discard();
      return absl::InternalError(absl::StrCat(target_, ": cannot write: ", renamed.message()));
    }
    sync_folder(final_);
  }
  if (!ok) {
    discard();
    return cannot_write(target_, error);
  }
  return absl::OkStatus();
}

absl::Status write_file_atomically(const std::string& target, std::span<const std::uint8_t> bytes) {
  AtomicFile file;
  if (auto s = file.open(target); !s.ok()) return s;
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file.stream()) != bytes.size())
    return cannot_write(target, errno);
  return file.commit();
}

}  // namespace anvil::platform
