// A whole data file a mod ships that no data file of its archive matches, added to that archive when the
// user allows it (`--allow-new`, docs/mods.md): appended by the archive's edit path (FORGE.md 6, Add), and
// gone again when the mod is uninstalled (the archive is cut back to its original length).
#pragma once

#include <absl/status/statusor.h>

#include <string>
#include <vector>

#include "pipeline/game_folder.hpp"
#include "pipeline/mods/shipped_data_file.hpp"

namespace anvil::mods {

struct ShippedAddition {
  std::string datafile;   // its name in the archive: the shipped name (AnvilToolkit's without "<id>_-_")
  u64 file_id = 0;        // the shipped name's id, else its first entry's
  u32 file_type = 0;      // the archive's name entry's (a whole archive's data file), else its first entry's
  std::vector<u8> bytes;  // decompressed
};

// `shipped` as an addition to its archive in `originals` (the folder before any mod). Errors (one line
// naming the label): the folder has no such archive; a data file of it has that name, ASCII case ignored;
// the name is not 1 to 128 bytes; the bytes are neither form of a data file of the archive; no id or type
// where it has no entry to take them from.
absl::StatusOr<ShippedAddition> shipped_data_file_addition(folder::FolderLevels& originals,
                                                           const ShippedDataFile& shipped);

}  // namespace anvil::mods
