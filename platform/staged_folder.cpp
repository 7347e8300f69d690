// platform/staged_folder.hpp, the part that is no system call (both systems): a StagedFolder moved hands its
// open folder, staging folder and created folders over; discard() (posix/, windows/) undoes them. The
// staging folder and the verdict on a taken name are the same on both systems.
#include "platform/staged_folder.hpp"

#include <absl/strings/str_cat.h>

#include <filesystem>
#include <string>
#include <system_error>
#include <utility>

#include "platform/paths.hpp"

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

absl::Status StagedFolder::create_missing() {
  if (dir_.empty()) return absl::InvalidArgumentError("-o: the folder's name is empty");
  std::error_code ec;
  // The folders that are missing, deepest first: removed again when nothing is written.
  for (std::filesystem::path p = path_of(dir_);
       !p.empty() && !std::filesystem::exists(std::filesystem::symlink_status(p, ec)); p = p.parent_path()) {
    created_.push_back(utf8_of(p));
    if (p == p.parent_path()) break;
  }
  if (!created_.empty() && !std::filesystem::create_directories(path_of(dir_), ec) && ec)
    return absl::InternalError(absl::StrCat(dir_, ": cannot create the folder: ", ec.message()));
  return absl::OkStatus();
}

absl::Status StagedFolder::make_stage() {
  auto stage = TempFolder::create(folder_, ".anvilrt-stage-");
  if (!stage.ok())
    return absl::InternalError(
        absl::StrCat(dir_, ": cannot create a temporary folder in it: ", stage.status().message()));
  stage_ = std::move(*stage);
  return absl::OkStatus();
}

absl::Status StagedFolder::taken_name(const std::string& name, bool folder, bool no_clobber) const {
  if (folder) return absl::InvalidArgumentError(absl::StrCat(path(name), ": a folder is in the way"));
  if (no_clobber)
    return absl::AlreadyExistsError(absl::StrCat(path(name), ": exists (--no-clobber: nothing is written)"));
  return absl::OkStatus();
}

}  // namespace anvil::platform
