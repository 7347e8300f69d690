// Patching a game folder (pipeline/game_folder.hpp) as one document: each operation routed to the archive
// it addresses and run there by the archive engine (patch/archive_patch.hpp), in order, all or nothing
// across archives. Operations address
//  * `/archives/FILE.forge/...`: that archive, the rest of the pointer as `anvilrt patch FILE.forge` takes it
//    (`/archives/A.forge/datafiles/NAME/objects/KEY/...`, `/archives/A.forge/objects/KEY/...`);
//  * `/objects/KEY/...`: the one archive holding an object with that key (every archive is searched, each
//    on all cores); a key held by several archives is refused, naming them;
//  * `/datafiles/NAME/...`: the one archive with a data file of that name (or file name, or 0xID);
//  * `/format`, `/game` (tests only): those of the first archive.
// `move` and `copy` work within one archive. Bulk operations range over every archive, or over those of
// their optional member `"archives": ["FILE.forge", ...]`; their `"objects"` keys are looked up among those
// archives as above; a bulk operation fails only when it matches nothing in every archive it reaches.
//
// The outcome is that of applying the operations one after another to the whole folder: the error is
// that of the first operation that fails (its index and pointer in the folder's patch), and then nothing
// may be written.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "patch/archive_patch.hpp"
#include "pipeline/forge_rewrite.hpp"
#include "pipeline/game_folder.hpp"

namespace anvil::folder {

struct ArchivePatch {
  std::size_t archive = 0;  // index into the folder's archives
  // Its data files' edits; with PatchOptions::record_changes the changes' pointers are folder pointers
  // (/archives/A.forge/datafiles/NAME/objects/KEY/...).
  patch::ArchivePatchOutcome outcome;
  std::vector<std::string> datafile_names;  // of outcome.datafiles, in order
  // Data files replaced whole before the operations ran (forge::ArchiveLevels::replace: a mod package's).
  std::size_t replaced_datafiles = 0;
  // Data files appended to the archive (a mod package's, with --allow-new), in order.
  std::vector<forge::DataFileAddition> added{};

  // Whether writing the folder writes this archive.
  bool writes() const { return outcome.edited_objects() > 0 || replaced_datafiles > 0 || !added.empty(); }
};

struct FolderPatchOutcome {
  std::optional<patch::PatchError> error;  // set: nothing may be written
  std::vector<ArchivePatch> archives;      // every archive an operation reached, ascending

  std::size_t edited_objects() const;
  std::size_t edited_datafiles() const;
  std::size_t edited_archives() const;
};

// Applies `patch` to the folder's archives; never throws. Archives are opened as operations need them.
FolderPatchOutcome apply_folder_patch(FolderLevels& folder, const rapidjson::Value& patch,
                                      const patch::PatchOptions& options = {});
FolderPatchOutcome apply_folder_patch_text(FolderLevels& folder, std::string_view patch_json,
                                           const patch::PatchOptions& options = {});

}  // namespace anvil::folder
