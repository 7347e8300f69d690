// Telling the owner of a buffer which of its bytes a left-to-right pass is done with, so that a mapped
// file's pages can leave memory behind the pass (InputFile::release).
#pragma once

#include <cstddef>
#include <functional>

namespace anvil {

// Told that the bytes [offset, offset + length) of a buffer will not be read again soon (the caller may
// drop their pages from memory, e.g. InputFile::release).
using ReleaseFn = std::function<void(std::size_t offset, std::size_t length)>;

// Passes a buffer's bytes to a ReleaseFn in steps of at least kReleaseStep as a left-to-right pass
// finishes with them.
class Releaser {
 public:
  explicit Releaser(const ReleaseFn& release) : release_(release) {}
  void done_before(std::size_t offset) {
    if (release_ && offset > released_ && offset - released_ >= kReleaseStep) {
      release_(released_, offset - released_);
      released_ = offset;
    }
  }
  void done_all(std::size_t size) {
    if (release_ && size > released_) release_(released_, size - released_);
    released_ = size;
  }

 private:
  static constexpr std::size_t kReleaseStep = std::size_t{4} << 20;
  const ReleaseFn& release_;
  std::size_t released_ = 0;
};

}  // namespace anvil
