#include "reader/input_file.hpp"

#include <absl/strings/numbers.h>
#include <absl/strings/str_cat.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <utility>

namespace anvil {

namespace {

// The first read's size; the buffer doubles from there as the input keeps coming.
constexpr std::size_t kFirstRead = std::size_t{64} << 10;

absl::Status read_error(const std::string& path, int error) {
  return absl::InvalidArgumentError(absl::StrCat(path, ": cannot read: ", std::strerror(error)));
}

// Reads `fd` to its end, or refuses it past InputFile::stream_limit(). Memory grows with the bytes that
// actually arrive, never with a size the input claims.
absl::Status read_all(int fd, const std::string& path, std::vector<u8>& out) {
  const std::size_t limit = InputFile::stream_limit();
  std::size_t size = 0;
  out.resize(std::min(kFirstRead, limit + 1));
  for (;;) {
    if (size > limit) {
      out = {};
      return absl::InvalidArgumentError(absl::StrCat(
          path, ": not a regular file, so read into memory, and longer than the limit of ", limit,
          " bytes (ANVILRT_STREAM_LIMIT; by default half of this machine's memory): give a regular file, which "
          "is mapped"));
    }
    // One byte past the limit is enough to know the stream is too long.
    if (size == out.size()) out.resize(std::min(out.size() * 2, limit + 1));
    ssize_t n = ::read(fd, out.data() + size, out.size() - size);
    if (n == 0) break;
    if (n < 0) {
      if (errno == EINTR) continue;
      return read_error(path, errno);
    }
    size += static_cast<std::size_t>(n);
  }
  out.resize(size);
  out.shrink_to_fit();
  return absl::OkStatus();
}

}  // namespace

std::size_t InputFile::stream_limit() {
  if (const char* text = std::getenv("ANVILRT_STREAM_LIMIT")) {
    std::size_t limit = 0;
    // At most half the address space, so that one byte past the limit is always a size.
    if (absl::SimpleAtoi(text, &limit)) return std::min(limit, std::numeric_limits<std::size_t>::max() / 2);
  }
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return std::size_t{1} << 31;
  return static_cast<std::size_t>(pages) / 2 * static_cast<std::size_t>(page);
}

absl::StatusOr<InputFile> InputFile::open(const std::string& path) {
  InputFile file;
  file.path_ = path;
  if (path == "-") {
    if (auto s = read_all(STDIN_FILENO, path, file.read_); !s.ok()) return s;
    file.data_ = file.read_.data();
    file.size_ = file.read_.size();
    return file;
  }
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return absl::NotFoundError(absl::StrCat(path, ": ", std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || S_ISDIR(st.st_mode)) {
    int error = S_ISDIR(st.st_mode) ? EISDIR : errno;
    ::close(fd);
    return absl::InvalidArgumentError(absl::StrCat(path, ": ", std::strerror(error)));
  }
  if (!S_ISREG(st.st_mode)) {
    absl::Status s = read_all(fd, path, file.read_);
    ::close(fd);
    if (!s.ok()) return s;
    file.data_ = file.read_.data();
    file.size_ = file.read_.size();
    return file;
  }
  file.size_ = static_cast<std::size_t>(st.st_size);
  if (file.size_ > 0) {
    void* p = ::mmap(nullptr, file.size_, PROT_READ, MAP_PRIVATE, fd, 0);
    if (p == MAP_FAILED) {
      int error = errno;
      ::close(fd);
      return absl::InternalError(absl::StrCat(path, ": cannot map: ", std::strerror(error)));
    }
    ::madvise(p, file.size_, MADV_SEQUENTIAL);
    file.data_ = static_cast<const u8*>(p);
    file.mapped_ = true;
  }
  file.fd_ = fd;
  return file;
}

std::span<const u8> InputFile::read_at(std::size_t offset, std::size_t length, std::vector<u8>& buffer) const {
  if (offset >= size_) return {};
  length = std::min(length, size_ - offset);
  if (!mapped_ || fd_ < 0) return bytes().subspan(offset, length);
  buffer.resize(length);
  std::size_t done = 0;
  while (done < length) {
    ssize_t n = ::pread(fd_, buffer.data() + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return bytes().subspan(offset, length);  // the mapping answers what pread could not
    done += static_cast<std::size_t>(n);
  }
  return buffer;
}

void InputFile::release(std::size_t offset, std::size_t length) const {
  if (!mapped_ || offset >= size_) return;
  length = std::min(length, size_ - offset);
  // Whole pages only: a page that also holds bytes outside the range may still be in use.
  auto page = static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  std::size_t begin = (offset + page - 1) / page * page;
  std::size_t end = offset + length == size_ ? size_ : (offset + length) / page * page;
  if (begin >= end) return;
  // A read-only private file mapping: MADV_DONTNEED drops the pages, and a later read maps the file's
  // bytes again (no copy-on-write page exists that could be lost).
  ::madvise(const_cast<u8*>(data_) + begin, end - begin, MADV_DONTNEED);
}

void InputFile::unmap() {
  if (mapped_) ::munmap(const_cast<u8*>(data_), size_);
  mapped_ = false;
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

// Moving the vector keeps its buffer, so data_ stays valid for read-in bytes too.
InputFile::InputFile(InputFile&& other) noexcept
    : path_(std::move(other.path_)),
      data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      mapped_(std::exchange(other.mapped_, false)),
      fd_(std::exchange(other.fd_, -1)),
      read_(std::move(other.read_)) {}

InputFile& InputFile::operator=(InputFile&& other) noexcept {
  if (this != &other) {
    unmap();
    path_ = std::move(other.path_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    mapped_ = std::exchange(other.mapped_, false);
    fd_ = std::exchange(other.fd_, -1);
    read_ = std::move(other.read_);
  }
  return *this;
}

InputFile::~InputFile() { unmap(); }

}  // namespace anvil
