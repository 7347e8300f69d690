// platform/temp_file.hpp, the part that is no system call (both systems): moving a TempFile or TempFolder
// hands its registered slot over; the one moved onto first removes its own temporary.
#include "platform/temp_file.hpp"

#include <string>
#include <utility>

namespace anvil::platform {

TempFile::TempFile(TempFile&& other) noexcept
    : slot_(std::exchange(other.slot_, -1)),
      handle_(std::exchange(other.handle_, kNoHandle)),
      path_(std::move(other.path_)) {}

TempFile& TempFile::operator=(TempFile&& other) noexcept {
  if (this != &other) {
    remove();
    slot_ = std::exchange(other.slot_, -1);
    handle_ = std::exchange(other.handle_, kNoHandle);
    path_ = std::move(other.path_);
  }
  return *this;
}

TempFolder::TempFolder(TempFolder&& other) noexcept
    : slot_(std::exchange(other.slot_, -1)),
      parent_(std::exchange(other.parent_, kNoHandle)),
      handle_(std::exchange(other.handle_, kNoHandle)),
      files_(std::exchange(other.files_, 0)),
      name_(std::move(other.name_)) {}

TempFolder& TempFolder::operator=(TempFolder&& other) noexcept {
  if (this != &other) {
    remove();
    slot_ = std::exchange(other.slot_, -1);
    parent_ = std::exchange(other.parent_, kNoHandle);
    handle_ = std::exchange(other.handle_, kNoHandle);
    files_ = std::exchange(other.files_, 0);
    name_ = std::move(other.name_);
  }
  return *this;
}

}  // namespace anvil::platform
