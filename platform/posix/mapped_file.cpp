#include "platform/mapped_file.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <string>
#include <utility>

#include "platform/posix/system_error.hpp"

namespace anvil::platform {

namespace {

// Fills in what fstat says of `file`'s descriptor.
absl::Status describe(int fd, ReadableFile::Kind& kind, std::uint64_t& size) {
  struct stat st {};
  if (::fstat(fd, &st) != 0) return errno_status(errno);
  kind = S_ISDIR(st.st_mode)   ? ReadableFile::Kind::kFolder
         : S_ISREG(st.st_mode) ? ReadableFile::Kind::kRegular
                               : ReadableFile::Kind::kStream;
  size = S_ISREG(st.st_mode) ? static_cast<std::uint64_t>(st.st_size) : 0;
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ReadableFile> ReadableFile::open(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return errno_status(errno);
  ReadableFile file(fd, true);
  if (auto s = describe(fd, file.kind_, file.size_); !s.ok()) return s;
  return file;
}

ReadableFile ReadableFile::standard_input() {
  ReadableFile file(STDIN_FILENO, false);
  file.kind_ = Kind::kStream;  // read as it comes, whatever it is
  return file;
}

absl::StatusOr<ReadableFile> ReadableFile::reopen(std::FILE* stream) {
  // Through /proc, not dup(2): a new open file description, with its own offset and read access even
  // where the stream's descriptor is write-only.
  return open("/proc/self/fd/" + std::to_string(::fileno(stream)));
}

void ReadableFile::close() {
  if (owned_ && handle_ >= 0) ::close(static_cast<int>(handle_));
  handle_ = kNoHandle;
}

absl::StatusOr<std::size_t> ReadableFile::read(std::span<std::uint8_t> into) {
  for (;;) {
    ssize_t n = ::read(static_cast<int>(handle_), into.data(), into.size());
    if (n >= 0) return static_cast<std::size_t>(n);
    if (errno != EINTR) return errno_status(errno);
  }
}

absl::StatusOr<std::size_t> ReadableFile::read_at(std::uint64_t offset, std::span<std::uint8_t> into) const {
  std::size_t done = 0;
  while (done < into.size()) {
    ssize_t n =
        ::pread(static_cast<int>(handle_), into.data() + done, into.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno_status(errno);
    if (n == 0) break;
    done += static_cast<std::size_t>(n);
  }
  return done;
}

void ReadableFile::forget_cached() const {
  if (kind_ == Kind::kRegular) (void)::posix_fadvise(handle_, 0, 0, POSIX_FADV_DONTNEED);
}

bool ReadableFile::copy_to(std::FILE* out, std::uint64_t size) const {
  if (std::fflush(out) != 0) return false;
  const int to_fd = ::fileno(out);
  loff_t from = 0, to = 0;
  while (static_cast<std::uint64_t>(from) < size) {
    ssize_t n =
        ::copy_file_range(static_cast<int>(handle_), &from, to_fd, &to, size - static_cast<std::uint64_t>(from), 0);
    if (n > 0) continue;
    if (n < 0 && errno == EINTR) continue;
    break;  // EXDEV, ENOSYS, a short source: the caller writes the bytes instead
  }
  return static_cast<std::uint64_t>(from) == size;
}

absl::StatusOr<Mapping> Mapping::map(const ReadableFile& file) {
  Mapping out;
  out.size_ = static_cast<std::size_t>(file.size());
  if (out.size_ == 0) return out;
  void* p = ::mmap(nullptr, out.size_, PROT_READ, MAP_PRIVATE, static_cast<int>(file.handle()), 0);
  if (p == MAP_FAILED) {
    out.size_ = 0;
    return errno_status(errno);
  }
  ::madvise(p, out.size_, MADV_SEQUENTIAL);
  out.data_ = static_cast<const std::uint8_t*>(p);
  return out;
}

void Mapping::unmap() {
  if (data_ != nullptr) ::munmap(const_cast<std::uint8_t*>(data_), size_);
  data_ = nullptr;
  size_ = 0;
}

void Mapping::release(std::size_t offset, std::size_t length) const {
  if (data_ == nullptr || offset >= size_) return;
  length = std::min(length, size_ - offset);
  auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::size_t begin = (offset + page - 1) / page * page;
  std::size_t end = offset + length == size_ ? size_ : (offset + length) / page * page;
  if (begin >= end) return;
  // A read-only private file mapping: MADV_DONTNEED drops the pages, and a later read maps the file's
  // bytes again (no copy-on-write page exists that could be lost).
  ::madvise(const_cast<std::uint8_t*>(data_) + begin, end - begin, MADV_DONTNEED);
}

}  // namespace anvil::platform
