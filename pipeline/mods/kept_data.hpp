// The whole data files installed mods replace (a mod package's, docs/mods.md), kept beside their documents in
// DIR/.anvilrt/mods/data/<sha256>.data, named by their content: two mods that ship the same bytes keep one
// copy, and a kept file is checked against its name before it is used.
#pragma once

#include <absl/status/statusor.h>

#include <string>
#include <vector>

#include "pipeline/folder_transaction.hpp"
#include "pipeline/mods/mod_check.hpp"

namespace anvil::mods {

// An installed mod as kept: its document (DIR/.anvilrt/mods/docs/NAME.json) and the data files it replaces.
// A kept data file that is missing or whose bytes are not those its document names is an error naming it.
absl::StatusOr<LoadedMod> load_installed_mod(const std::string& dir, const std::string& name);

// Stages the data files `mods` replace (those of mods[i] where `only`, when given, is true at i) that the
// folder does not keep yet.
absl::Status stage_kept_data(folder::FolderTransaction& txn, const std::string& dir, const std::vector<LoadedMod>& mods,
                             const std::vector<bool>* only = nullptr);

// Stages the removal of the kept data files that `removed` name and no mod of `staying` does.
absl::Status stage_unkept_data(folder::FolderTransaction& txn, const std::vector<LoadedMod>& removed,
                               const std::vector<LoadedMod>& staying);

// A mod document given by the user that names data files it replaces (written by anvilrt for an installed
// package) is refused: its bytes are not with it.
absl::Status check_not_kept_document(const LoadedMod& mod);

}  // namespace anvil::mods
