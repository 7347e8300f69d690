// The mods installed in a game folder (docs/mods.md), kept in DIR/.anvilrt/mods/:
//   state.json        the load order, what each mod changed, and each archive mods touched: its length
//                     before any mod, the stamp (size, modification time) it had after anvilrt last wrote
//                     it, and the file of its undo data
//   docs/NAME.json    each installed mod's document, as it was given
//   undo/FILE.undo    each touched archive's original bytes where mods changed them (undo_data.hpp)
#pragma once

#include <absl/status/statusor.h>

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "model/primitives.hpp"

namespace anvil::mods {

// One field a mod left written: its folder pointer and its value as JSON text (nothing: removed).
struct FieldWrite {
  std::string pointer;
  std::optional<std::string> value;
};

// What a mod changes, in the folder's terms.
struct ModEffect {
  std::vector<std::string> archives;   // "levels.forge"
  std::vector<std::string> datafiles;  // "levels.forge/NAME"
  std::vector<std::string> objects;    // "levels.forge/NAME/KEY"
  std::vector<FieldWrite> writes;      // the last value it wrote to each field, in pointer order
};

struct InstalledMod {
  std::string name;
  ModEffect effect;
};

// How anvilrt last left an archive: a file whose size or modification time differs was changed by
// something else since (a game update).
struct Stamp {
  u64 size = 0;
  i64 mtime_ns = 0;
  bool operator==(const Stamp&) const = default;
};

struct ArchiveRecord {
  u64 original_size = 0;
  std::string original_sha256;  // empty until a mod's made_for needed it
  Stamp stamp;
};

struct ModState {
  std::vector<InstalledMod> mods;                 // in load order
  std::map<std::string, ArchiveRecord> archives;  // the archives mods changed, by file name
};

// Paths of the state, relative to the game folder (what FolderTransaction::stage takes).
std::string state_relative();
std::string document_relative(const std::string& mod);
std::string undo_relative(const std::string& archive);
// DIR/relative.
std::string in_folder(const std::string& dir, const std::string& relative);

// The state of DIR (empty when no mod was ever installed); a damaged state.json is an error naming it.
absl::StatusOr<ModState> load_state(const std::string& dir);
std::string state_text(const ModState& state);

// The stamp of a file as it is now, or an error naming it.
absl::StatusOr<Stamp> stamp_of(const std::string& path);
// The archives of `state` whose file no longer has its stamp ("levels.forge"), sorted.
std::vector<std::string> changed_behind_our_back(const std::string& dir, const ModState& state);

}  // namespace anvil::mods
