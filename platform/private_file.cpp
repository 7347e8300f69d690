// platform/private_file.hpp, the part that is no system call (both systems): a move hands the file over;
// the one moved onto first removes its own.
#include "platform/private_file.hpp"

#include <utility>

namespace anvil::platform {

PrivateFile::PrivateFile(PrivateFile&& other) noexcept
    : folder_(std::exchange(other.folder_, {})), path_(std::exchange(other.path_, {})) {}

PrivateFile& PrivateFile::operator=(PrivateFile&& other) noexcept {
  if (this != &other) {
    remove();
    folder_ = std::exchange(other.folder_, {});
    path_ = std::exchange(other.path_, {});
  }
  return *this;
}

}  // namespace anvil::platform
