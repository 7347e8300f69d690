// The mods installed in a game folder (docs/mods.md), kept in DIR/.anvilrt/mods/:
//   state.json        the load order, what each mod changed, and each archive mods touched: its length
//                     before any mod, and the stamp (size, modification time) and CRC-32 it had after
//                     anvilrt last wrote it
//   docs/NAME.json    each installed mod's document, as it was given
//   undo/FILE.undo    each touched archive's original bytes where mods changed them (undo_data.hpp)
//   data/SHA256.data  each data file an installed package replaces outside its objects (kept_data.hpp)
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
  // What tells its files from changed ones (mod_identity.hpp): empty in a state written before it was kept
  // (then the kept document's own sha256 stands for it).
  std::string digest;
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
  // The CRC-32 of the whole file as anvilrt left it: what tells the file anvilrt wrote from one changed
  // since, whatever its stamp says (absent in a state written before it was kept: the stamp decides).
  std::optional<u32> crc32;
};

struct ModState {
  std::vector<InstalledMod> mods;                 // in load order
  std::map<std::string, ArchiveRecord> archives;  // the archives mods changed, by file name
};

// Paths of the state, relative to the game folder (what FolderTransaction::stage takes).
std::string state_relative();
std::string document_relative(const std::string& mod);
std::string undo_relative(const std::string& archive);
// A data file an installed mod replaces (kept_data.hpp), named by the sha256 of its bytes.
std::string kept_data_relative(const std::string& sha256);
// DIR/relative.
std::string in_folder(const std::string& dir, const std::string& relative);

// The state of DIR (empty when no mod was ever installed); a damaged state.json is an error naming it.
absl::StatusOr<ModState> load_state(const std::string& dir);
std::string state_text(const ModState& state);

// The stamp of a file as it is now, or an error naming it.
absl::StatusOr<Stamp> stamp_of(const std::string& path);
// The CRC-32 of the whole file, or an error naming it.
absl::StatusOr<u32> content_crc32(const std::string& path);

// How closely a command looks at the archives mods changed before it trusts its undo data for them.
enum class Scrutiny {
  stamp,    // list and check: a file that has its stamp is as anvilrt left it; any other one is read
  content,  // install and uninstall, before they write: every file is read
};
// Whether archive `name` of DIR is still as anvilrt left it (`record`): the same size and CRC-32 (where the
// record has one; its stamp otherwise). When only the stamp differs (a copy, a `touch`), `record` takes
// the new one, so that a state saved later stops reading the file.
bool as_anvilrt_left_it(const std::string& dir, const std::string& name, ArchiveRecord& record, Scrutiny how);
// The archives of `state` that are not (as_anvilrt_left_it), sorted ("levels.forge").
std::vector<std::string> changed_behind_our_back(const std::string& dir, ModState& state, Scrutiny how);

}  // namespace anvil::mods
