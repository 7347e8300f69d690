// Files written into a folder all together or not at all (`extract`). The folder is opened once; every
// name after it is resolved from the open folder and never followed (on Windows, a reparse point --
// junction, symbolic link -- is never opened through: FILE_FLAG_OPEN_REPARSE_POINT): the files are made in a temporary
// folder inside it (TempFolder: `.anvilrt-stage-XXXXXX`, removed on any error, when dropped without
// commit(), and on an interrupt: temp_file.hpp), and commit() renames each over its name. A symbolic
// link already at a name is replaced by the file, never written through; a folder there is refused
// before anything is written.
//
// All or nothing holds up to commit(): the renames are one per file, so a signal or a failed rename in
// the middle of commit() leaves the files renamed so far (each one whole).
//
// Names and paths are UTF-8 (on Windows, converted to the wide APIs' UTF-16).
#pragma once

#include <absl/status/statusor.h>

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "platform/native_handle.hpp"
#include "platform/temp_file.hpp"

namespace anvil::platform {

class StagedFolder {
 public:
  // Opens `dir`, creating it and its missing parents (a symbolic link given as `dir`, or in its path, is
  // followed: the user named it), and makes the staging folder in it. Errors are one line naming `dir`.
  static absl::StatusOr<StagedFolder> open(const std::string& dir);
  StagedFolder() = default;
  StagedFolder(StagedFolder&& other) noexcept;
  StagedFolder& operator=(StagedFolder&& other) noexcept;
  StagedFolder(const StagedFolder&) = delete;
  ~StagedFolder();

  // "<dir>/<name>", for messages.
  std::string path(const std::string& name) const;
  // Whether `name` (a single file name) may be written: refused when a folder is there, and, with
  // `no_clobber`, when anything is (a dangling link included). One line naming the file.
  absl::Status check(const std::string& name, bool no_clobber) const;
  // Writes `bytes` to a new file in the staging folder (synced), to be renamed to `name` by commit().
  absl::Status stage(const std::string& name, std::span<const std::uint8_t> bytes);
  // Renames every staged file over its name (with `no_clobber`, one that appeared meanwhile is not
  // replaced: an error), syncs the folder and removes the staging folder.
  absl::Status commit(bool no_clobber);
  // Removes the staging folder and what it holds, and the folders open() created (when empty): the
  // folder is as it was.
  void discard();

 private:
  // Both systems' steps around their system calls (platform/staged_folder.cpp).
  absl::Status create_missing();  // dir_ and its missing parents, noted in created_
  absl::Status make_stage();      // the staging folder in the open folder
  // The verdict on a name where something is: refused when it is a folder, and with `no_clobber`.
  absl::Status taken_name(const std::string& name, bool folder, bool no_clobber) const;

  std::string dir_;
  NativeHandle folder_ = kNoHandle;
  std::vector<std::string> created_;  // folders open() made, deepest first
  TempFolder stage_;
  std::vector<std::pair<std::string, std::string>> staged_;  // (name in the staging folder, name in dir)
};

}  // namespace anvil::platform
