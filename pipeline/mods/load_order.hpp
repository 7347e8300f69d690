// Making a game folder's installed mods exactly one load order (docs/mods.md, How install and uninstall
// work): every archive a mod changed is restored to its original bytes in a work folder, the load order is
// applied to those originals (and to the other archives as they are) as install applies mods, and the
// result is written with the new state in the caller's transaction. The folder is then what installing
// that load order alone, in one install, gives, byte for byte. What `mod uninstall` (the mods that stay)
// and `mod sync` (the mods given) share.
#pragma once

#include <absl/status/status.h>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "model/progress.hpp"
#include "pipeline/folder_transaction.hpp"
#include "pipeline/mods/mod_commands.hpp"

namespace anvil::mods {

struct LoadOrder {
  std::vector<LoadedMod> mods;       // in load order; each one's digest is what the state keeps of it
  std::vector<bool> write_document;  // of each mod: whether its document is written (new, or changed)
  std::vector<std::string> removed;  // installed mods that go: their documents are removed
  // (earlier, later): pairs of mods whose conflicts were settled when they were installed (both unchanged,
  // in that order): neither refused nor reported again.
  std::set<std::pair<std::string, std::string>> settled;
  bool allow_overrides = false;
  // Whether the mods are written into an archive that no installed mod changed (or that was forgotten):
  // sync installs there; uninstall leaves such an archive as it is.
  bool touch_unrecorded = true;
  // The command's words: "uninstalled" in "nothing uninstalled", "not uninstalled: ...".
  std::string done;
  std::string refused_failing;  // the refusal when an operation of a mod fails
};

// Stages the load order in `txn` and commits it; `state` is the folder's state as read under txn's lock.
// `report` gets the analysis (`check`, its conflicts those not settled), the overrides and the archives
// written (`notes`), or the refusal. An archive changed behind anvilrt's back is an error, nothing written.
// `progress` hears the bytes of the archives restored and then written, of an estimate of all (the archives
// mods changed, restored and written again).
absl::Status write_load_order(const std::string& dir, folder::FolderTransaction& txn, const ModState& state,
                              const LoadOrder& order, WriteReport& report, const ProgressFn& progress = {});

// An error naming the archives of `state` changed behind anvilrt's back (their content read: see
// Scrutiny::content), "nothing DONE"; those only touched get their new stamp in `state`.
absl::Status refuse_if_changed(const std::string& dir, ModState& state, const std::string& done);

// Makes DIR/.anvilrt/mods/{docs,undo}.
absl::Status prepare_state_folders(const std::string& dir);

}  // namespace anvil::mods
