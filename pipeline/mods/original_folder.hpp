// A game folder as it was before any mod (docs/mods.md): each archive a mod changed restored to its
// original bytes (its undo data written back, its length cut) in a work folder under DIR/.anvilrt/mods/,
// the others read where they are. `uninstall` applies the mods that stay to it; a whole data file or
// archive of a mod package is compared with it to find what the mod changes.
#pragma once

#include <absl/status/statusor.h>

#include <functional>
#include <map>
#include <memory>
#include <string>

#include "pipeline/game_folder.hpp"
#include "pipeline/mods/mod_state.hpp"

namespace anvil::mods {

// The folder the restored archives are made in, removed (whatever happens) when it goes.
class WorkFolder {
 public:
  explicit WorkFolder(std::string path) : path_(std::move(path)) {}
  ~WorkFolder();
  WorkFolder(const WorkFolder&) = delete;
  WorkFolder& operator=(const WorkFolder&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct OriginalFolder {
  std::unique_ptr<WorkFolder> work;             // where the restored copies are (none when no mod changed any)
  std::map<std::string, std::string> restored;  // archive name -> its restored copy
  folder::GameFolder folder;                    // the folder, each restored archive read from its copy
};

// Restores each archive `state` records into a work folder of its own, DIR/.anvilrt/mods/work-<random>. Errors name the
// archive or the undo file.
// `restored`, when given, hears each archive's original size once it is restored.
absl::StatusOr<OriginalFolder> open_original_folder(const std::string& dir, const ModState& state,
                                                    const std::function<void(u64)>& restored = {});

}  // namespace anvil::mods
