#include "reader/input_file.hpp"

#include <absl/strings/str_cat.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <utility>

namespace anvil {

absl::StatusOr<InputFile> InputFile::open(const std::string& path) {
  int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return absl::NotFoundError(absl::StrCat(path, ": ", std::strerror(errno)));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return absl::InvalidArgumentError(absl::StrCat(path, ": not a regular file"));
  }
  InputFile file;
  file.path_ = path;
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
  }
  ::close(fd);
  return file;
}

void InputFile::release(std::size_t offset, std::size_t length) const {
  if (data_ == nullptr || offset >= size_) return;
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

InputFile::InputFile(InputFile&& other) noexcept
    : path_(std::move(other.path_)), data_(std::exchange(other.data_, nullptr)), size_(std::exchange(other.size_, 0)) {}

InputFile& InputFile::operator=(InputFile&& other) noexcept {
  if (this != &other) {
    if (data_ != nullptr) ::munmap(const_cast<u8*>(data_), size_);
    path_ = std::move(other.path_);
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
  }
  return *this;
}

InputFile::~InputFile() {
  if (data_ != nullptr) ::munmap(const_cast<u8*>(data_), size_);
}

}  // namespace anvil
