// `anvilrt mod check DIR MOD...` (docs/mods.md): what a load order of mods does to a game folder, after
// the mods installed there, with nothing written: each mod's effect, its operations that fail, and the
// conflicts between mods. `install` runs the same analysis before it writes.
#pragma once

#include <absl/status/statusor.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "patch/mod_document.hpp"
#include "pipeline/folder_patch.hpp"
#include "pipeline/mods/mod_effects.hpp"
#include "pipeline/mods/mod_state.hpp"
#include "pipeline/mods/undo_data.hpp"

namespace anvil::mods {

struct LoadedMod {
  std::string path;
  std::string text;  // the file as given
  patch::ModDocument doc;
  // The data files doc.replaces names, by its key ("A.forge/NAME"): their decompressed bytes (a package's,
  // or kept beside an installed mod).
  std::map<std::string, std::vector<u8>> replacements;
  // The data files doc.adds names, likewise.
  std::map<std::string, std::vector<u8>> additions;
  std::string digest;  // what tells this mod's files from changed ones (mod_identity.hpp)
};

// What the user lets the mods a command is given do (--allow-overrides, --allow-new).
struct ModOptions {
  bool allow_overrides = false;  // the later mod wins where two leave one field different values
  bool allow_new = false;        // a package's data file that its archive lacks is added to that archive
};

// Reads and parses a mod file; an error is one line naming it.
absl::StatusOr<LoadedMod> load_mod(const std::string& path);

struct ModReport {
  std::string name;
  bool installed = false;  // installed before this command
  ModEffect effect;
  std::vector<std::string> failures;  // "op 3 (/path): reason", one per failing operation
  std::vector<std::string> warnings;  // made_for hashes that differ
  // list: the mod document's version and author (empty when it gives none), and the writes this mod
  // lost to a mod installed after it (installed with --allow-overrides), each with that mod's value.
  std::string version, author;
  std::vector<Conflict> lost;
};

struct CheckReport {
  std::string dir;              // the game folder, as the user named it
  std::vector<ModReport> mods;  // the installed ones, then those given, in load order
  std::vector<Conflict> conflicts;
  std::vector<std::string> changed_archives;  // changed behind anvilrt's back since it last wrote them
  // What opening the folder finished or rolled back first (folder::open_game_folder): one line for stderr.
  std::string recovered;

  bool failing() const;
  std::string text() const;
  std::string json() const;
};

// The analysis of `mods` (in order) over the archives of `folder` as they are, after `state`'s installed
// mods (`dir`: the game folder, whose undo data tells the original bytes of an archive read from there).
// `outcome`, when no operation fails: the folder patch of the given mods, ready to write.
struct Analysis {
  CheckReport report;
  std::optional<folder::FolderPatchOutcome> outcome;
};
absl::StatusOr<Analysis> analyse(const std::string& dir, const ModState& state, folder::FolderLevels& folder,
                                 const std::vector<LoadedMod>& mods);

// The concatenation of the mods' patches, in order; `first_op` gets each mod's first operation's index.
rapidjson::Document concatenated(const std::vector<const patch::ModDocument*>& mods,
                                 std::vector<std::size_t>* first_op);

// The original sha256 of an archive whose bytes are `bytes` (with `undo`'s original bytes when it has some).
std::string original_sha256(std::span<const u8> bytes, const ArchiveUndo* undo);

// `anvilrt mod check`: load the mods, open the folder, analyse (`options.allow_new` only is read).
absl::StatusOr<CheckReport> check_mods(const std::string& dir, const std::vector<std::string>& mod_paths,
                                       const ModOptions& options = {});

}  // namespace anvil::mods

namespace anvil::mods {
// "conflict: a and b write /p: a leaves 1, b leaves 2"
std::string conflict_line(const Conflict& c);
// "override: b wins over a at /p (2, was 1)": a conflict let through by --allow-overrides.
std::string override_line(const Conflict& c);
}  // namespace anvil::mods
