// platform/staged_folder.hpp, the part that is no system call (both systems): a StagedFolder moved hands its
// open folder, staging folder and created folders over; discard() (posix/, windows/) undoes them.
#include "platform/staged_folder.hpp"

#include <string>
#include <utility>

namespace anvil::platform {

StagedFolder::StagedFolder(StagedFolder&& other) noexcept
    : dir_(std::move(other.dir_)),
      folder_(std::exchange(other.folder_, kNoHandle)),
      created_(std::move(other.created_)),
      stage_(std::move(other.stage_)),
      staged_(std::move(other.staged_)) {
  other.created_.clear();
}

StagedFolder& StagedFolder::operator=(StagedFolder&& other) noexcept {
  if (this != &other) {
    discard();
    dir_ = std::move(other.dir_);
    folder_ = std::exchange(other.folder_, kNoHandle);
    created_ = std::move(other.created_);
    other.created_.clear();
    stage_ = std::move(other.stage_);
    staged_ = std::move(other.staged_);
  }
  return *this;
}

StagedFolder::~StagedFolder() { discard(); }

}  // namespace anvil::platform
