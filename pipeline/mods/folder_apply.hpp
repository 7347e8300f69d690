// A patch applied to the archives of a game folder (docs/mods.md, Addressing): each operation is routed
// to one archive, `/archives/FILE.forge/...` to that archive (the rest of the pointer is the archive
// document's, patch/archive_patch.hpp), `/objects/KEY/...` to the one archive that holds the key (a key
// in two archives is refused, naming both). The archives' shares are applied there in order; as the
// archives do not see each other, that is the patch applied one operation after the other. The recorded
// changes carry folder pointers (/archives/FILE.forge/datafiles/NAME/objects/KEY/...) and the operation's
// index in the whole patch.
#pragma once

#include <absl/status/statusor.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/forge/archive.hpp"
#include "patch/archive_patch.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/input_file.hpp"

namespace anvil::mods {

// One archive of the folder, open for patching.
struct FolderArchive {
  std::string name;  // its file name in the folder ("levels.forge")
  std::string path;  // the file read (the folder's, or a copy standing for it)
  std::unique_ptr<InputFile> input;
  std::unique_ptr<forge::Archive> archive;  // held by pointer: `levels` refers to it
  std::unique_ptr<forge::ArchiveLevels> levels;
};

// The folder's archives (*.forge, not recursive, by name), each read from `path_of` when it names a
// stand-in file for it (an archive restored to its original bytes).
absl::StatusOr<std::vector<FolderArchive>> open_archives(const std::string& dir,
                                                         const std::map<std::string, std::string>& path_of = {});
// The file names of the folder's archives, sorted.
absl::StatusOr<std::vector<std::string>> archive_names(const std::string& dir);

struct FolderOutcome {
  std::optional<patch::PatchError> error;  // the first operation that fails; nothing may be written then
  std::string error_archive;               // the archive it failed in, if it reached one
  std::map<std::size_t, patch::ArchivePatchOutcome> archives;  // by index into the archives
  std::vector<patch::Change> changes;  // with record_changes: folder pointers, indices into the whole patch
};

FolderOutcome apply_to_folder(std::vector<FolderArchive>& archives, const rapidjson::Value& patch,
                              const patch::PatchOptions& options);

}  // namespace anvil::mods
