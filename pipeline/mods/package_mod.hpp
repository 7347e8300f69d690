// A mod package (pipeline/mods/mod_package.hpp: a folder, .zip or .7z of whole data files, whole archives
// and anvilrt mod documents) as a mod, merged with others by what it changes (docs/mods.md, Mod packages):
// its document's patch is, in order, the operations of each anvilrt document it holds, then the effect of
// each whole data file against the folder's original one (shipped_data_file.hpp), then that of each whole
// archive, data file by data file. So a package installs, uninstalls, conflicts and merges as any mod.
#pragma once

#include <absl/status/statusor.h>

#include <vector>

#include "patch/diff.hpp"
#include "patch/rapidjson_document.hpp"
#include "pipeline/game_folder.hpp"
#include "pipeline/mods/mod_check.hpp"
#include "pipeline/mods/mod_package.hpp"

namespace anvil::mods {

// `originals`: the folder as it was before any mod (original_folder.hpp). `allow_new`: a data file that its
// archive lacks (a member, or a whole archive's) is added to the archive (shipped_addition.hpp), else refused.
// Errors are one line naming the package and the member.
absl::StatusOr<LoadedMod> package_mod(const ModPackage& package, folder::FolderLevels& originals,
                                      bool allow_new = false);

// Operations with folder pointers appended to `patch` (a JSON array): a `replace`, `add` or `remove` for
// each, without `test`s (the values a mod leaves are its effect).
void append_effect_ops(const std::vector<patch::DiffOp>& ops, rapidjson::Document& patch);

}  // namespace anvil::mods
