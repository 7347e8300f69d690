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

// For a command about to change the game folder DIR in place (a mod's install, ...): OK when DIR holds an
// archive, or anvilrt has written there (DIR/.anvilrt/: what it left must stay reachable); else
// list_archives' error, before anything is made in DIR, so that a refused command leaves no .anvilrt/.
absl::Status check_game_folder(const std::string& dir);

}  // namespace anvil::folder
