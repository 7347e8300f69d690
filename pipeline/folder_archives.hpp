// Which files of a folder are its game folder's archives (docs/game-folders.md): the `.forge` files lying
// directly in it, not hidden, regular. Said once, for opening a folder and for the transaction that must
// not make DIR/.anvilrt/ in a folder that is no game folder.
#pragma once

#include <absl/status/statusor.h>

#include <string>
#include <vector>

namespace anvil::folder {

// DIR's archives, sorted by name. Errors are one line naming DIR: no such folder, not a folder, cannot be
// listed, no `.forge` archive in it.
absl::StatusOr<std::vector<std::string>> list_archives(const std::string& dir);

}  // namespace anvil::folder
