// The mods a command is given, each a mod document or patch file (load_mod) or a mod package (a folder,
// .zip or .7z: package_mod.hpp), in the order given. Read first (every file, nothing of the game folder:
// a bad mod is refused before the folder is touched), then resolved: packages turned into operations
// against the game folder's original bytes, which are opened (mod-changed archives restored:
// original_folder.hpp) once, and only when a package is given.
#pragma once

#include <absl/status/statusor.h>

#include <string>
#include <variant>
#include <vector>

#include "pipeline/game_folder.hpp"
#include "pipeline/mods/mod_check.hpp"
#include "pipeline/mods/mod_package.hpp"
#include "pipeline/mods/mod_state.hpp"

namespace anvil::mods {

using GivenMod = std::variant<LoadedMod, ModPackage>;

// Errors are one line naming the mod and the member. `digests`: whether a package's digest is computed
// (LoadedMod::digest; a command that records or compares none does without: empty).
absl::StatusOr<std::vector<GivenMod>> read_given_mods(const std::vector<std::string>& paths, bool digests = true);

// `dir`: the game folder a package is compared with, `state` its installed mods (none: a package is
// refused, naming it, as there is nothing to compare it with). `current`: the command's own opened folder,
// which is the originals themselves where no mod changed an archive (its archives then read and voted once).
// `allow_new`: a package's data file its archive lacks is added to it (package_mod.hpp), else refused.
absl::StatusOr<std::vector<LoadedMod>> resolve_given_mods(std::vector<GivenMod> given, const std::string* dir,
                                                          const ModState* state,
                                                          folder::FolderLevels* current = nullptr,
                                                          bool allow_new = false);

// Both, for a command that holds no lock between them.
absl::StatusOr<std::vector<LoadedMod>> load_given_mods(const std::vector<std::string>& paths, const std::string* dir,
                                                       const ModState* state, bool allow_new = false);

}  // namespace anvil::mods
