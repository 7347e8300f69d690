// `anvilrt map` of what the command names: a game folder (view/map_folder.hpp), or one file the command
// opened (a level file, a decompressed data file, or a .forge archive's every data file) read as a level set
// and drawn and written as write_map does (view/map_file.hpp). The command line reads the inputs and the
// patches and prints what the map holds.
#pragma once

#include <span>
#include <string>

#include "pipeline/game_folder.hpp"
#include "pipeline/input_view.hpp"
#include "reader/level.hpp"
#include "view/map_file.hpp"
#include "view/map_folder.hpp"

namespace anvil::view {

struct MapTarget {
  std::string folder;  // a game folder's path: its archives' data files are drawn, and `file` is not read
  folder::FolderOptions folder_options;
  InputView file;         // otherwise: the file as the command opened it (an archive with its tables read)
  Game game = Game::ac2;  // a level file's or a data file's dialect (an archive's is file.archive_game)
};

// Draws and writes the map of `target`, the patches applied in order. Errors as write_map's.
MapRun draw_map(const MapTarget& target, std::span<const NamedPatch> patches, const MapRequest& request);

}  // namespace anvil::view
