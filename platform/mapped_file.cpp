// platform/mapped_file.hpp, the part that is no system call (both systems): a ReadableFile or Mapping
// moved hands its handle or view over; close() and unmap() (posix/, windows/) release them.
#include "platform/mapped_file.hpp"

#include <cstdint>
#include <utility>

namespace anvil::platform {

ReadableFile::ReadableFile(ReadableFile&& other) noexcept
    : handle_(std::exchange(other.handle_, kNoHandle)), owned_(other.owned_), kind_(other.kind_), size_(other.size_) {}

ReadableFile& ReadableFile::operator=(ReadableFile&& other) noexcept {
  if (this != &other) {
    close();
    handle_ = std::exchange(other.handle_, kNoHandle);
    owned_ = other.owned_;
    kind_ = other.kind_;
    size_ = other.size_;
  }
  return *this;
}

ReadableFile::~ReadableFile() { close(); }

Mapping::Mapping(Mapping&& other) noexcept
    : data_(std::exchange(other.data_, nullptr)),
      size_(std::exchange(other.size_, 0)),
      section_(std::exchange(other.section_, kNoHandle)) {}

Mapping& Mapping::operator=(Mapping&& other) noexcept {
  if (this != &other) {
    unmap();
    data_ = std::exchange(other.data_, nullptr);
    size_ = std::exchange(other.size_, 0);
    section_ = std::exchange(other.section_, kNoHandle);
  }
  return *this;
}

Mapping::~Mapping() { unmap(); }

}  // namespace anvil::platform
