#include "writer/atomic_file.hpp"

#include <absl/strings/str_cat.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

namespace anvil {

AtomicFile::~AtomicFile() { discard(); }

void AtomicFile::discard() {
  if (file_ != nullptr) std::fclose(file_);
  file_ = nullptr;
  if (!temp_.empty()) ::unlink(temp_.c_str());
  temp_.clear();
}

absl::Status AtomicFile::open(const std::string& target) {
  discard();
  target_ = target;
  std::filesystem::path path(target);
  std::filesystem::path folder = path.parent_path().empty() ? "." : path.parent_path();
  std::string pattern = (folder / ("." + path.filename().string() + ".tmp.XXXXXX")).string();
  int fd = ::mkstemp(pattern.data());
  if (fd < 0)
    return absl::InternalError(absl::StrCat("cannot create a file in ", folder.string(), ": ", std::strerror(errno)));
  ::fchmod(fd, 0644);
  temp_ = pattern;
  file_ = ::fdopen(fd, "wb");
  if (file_ == nullptr) {
    ::close(fd);
    discard();
    return absl::InternalError(absl::StrCat("cannot open ", pattern, ": ", std::strerror(errno)));
  }
  return absl::OkStatus();
}

absl::Status AtomicFile::commit() {
  if (file_ == nullptr) return absl::FailedPreconditionError("no file open");
  bool ok = std::fflush(file_) == 0 && !std::ferror(file_) && ::fsync(::fileno(file_)) == 0;
  int error = errno;
  ok = std::fclose(file_) == 0 && ok;
  file_ = nullptr;
  if (!ok || ::rename(temp_.c_str(), target_.c_str()) != 0) {
    if (ok) error = errno;
    discard();
    return absl::InternalError(absl::StrCat("cannot write ", target_, ": ", std::strerror(error)));
  }
  temp_.clear();
  return absl::OkStatus();
}

absl::Status write_file_atomically(const std::string& target, std::span<const u8> bytes) {
  AtomicFile file;
  if (auto s = file.open(target); !s.ok()) return s;
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file.stream()) != bytes.size())
    return absl::InternalError(absl::StrCat("cannot write ", target, ": ", std::strerror(errno)));
  return file.commit();
}

}  // namespace anvil
