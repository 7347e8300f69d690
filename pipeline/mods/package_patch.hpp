// A mod package (mod_package.hpp: a folder, .zip or .7z of whole data files, archives and mod documents) as a
// patch, where a command takes a patch for a game folder (`anvilrt patch DIR PACKAGE`, `anvilrt map DIR
// --patch PACKAGE`): the operations it amounts to against the folder's original archives (package_mod.hpp),
// as patch text with folder pointers.
#pragma once

#include <absl/status/statusor.h>

#include <string>

namespace anvil::mods {

// The package at `path` as patch text for the game folder `dir`. Refused, in one line naming the package: a
// package that also replaces bytes outside every object or adds a data file (a patch carries no bytes:
// `anvilrt mod install` takes it), and whatever reading and comparing it refuses.
absl::StatusOr<std::string> package_patch_text(const std::string& path, const std::string& dir);

}  // namespace anvil::mods
