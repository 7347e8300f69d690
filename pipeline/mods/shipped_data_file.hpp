// What a whole data file a mod ships changes (docs/mods.md, Mod packages): the operations `anvilrt diff`
// finds between the folder's original data file (before any mod) and the shipped one, for every object
// anvilrt reads, addressed by folder pointers (/archives/A.forge/datafiles/NAME/objects/KEY/...), and
// without diff's `test`s: a mod's effect is the values it leaves, so that two mods that ship the same data
// file merge when they change different objects or fields, and conflict (mod_effects.hpp) where they leave
// one field different values.
#pragma once

#include <absl/status/statusor.h>

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/forge/checksum_rule.hpp"
#include "model/forge/variant.hpp"
#include "patch/diff.hpp"
#include "pipeline/game_folder.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/level.hpp"

namespace anvil::mods {

struct ShippedDataFile {
  std::string archive;             // the folder's archive it belongs to: "levels.forge"
  std::string name;                // the data file in it: a unique name, a file name (as `extract` writes it) or 0xID
  std::optional<u64> id;           // its file_id, when the file's name gives it (AnvilToolkit's "<id>_-_<name>.data")
  std::span<const u8> bytes;       // decompressed (as `extract` writes it) or stored (as the archive holds it)
  std::string label;               // how a message names it: "mods/x.zip: member 'Extracted/levels.forge/a.data'"
  bool decompressed = false;       // known to be decompressed (a whole archive's data file): its form not looked for
  std::optional<u32> file_type{};  // a whole archive's data file's, from its name entry (an addition's: see below)
};

// What a shipped data file changes: the operations that turn the original data file's objects into the shipped
// one's (in file order), and, where it differs outside every object, the data file it replaces the original
// with: the shipped bytes with the original's objects in them (so that only bytes no object holds are
// replaced, and the objects change by the operations, merged with other mods'), or, where the objects do not
// lie where the original's do, the shipped bytes whole (its objects then change with it, not by operation).
struct ShippedEffect {
  std::string datafile;  // its unique name in the archive
  std::vector<patch::DiffOp> ops;
  std::optional<std::vector<u8>> replacement;  // decompressed
};

// The data file is the one of that name; where the name repeats (or names none), the one of that id among
// them. Errors (one line naming the label): the folder has no such archive; no such data file in it (a
// NotFound error: shipped_addition.hpp adds it where the user allows); the name matches several; the bytes are neither
// form of a data file of that archive's version and layout; a stored block does not decompress or fails the archive's
// checksum rule.
absl::StatusOr<ShippedEffect> shipped_data_file_effect(folder::FolderLevels& originals, const ShippedDataFile& shipped);

// The folder's archive a shipped data file belongs to: its index in `originals` and its data files; an error
// naming the label where the folder has no such archive.
struct ShippedArchive {
  std::size_t index = 0;
  forge::ArchiveLevels* levels = nullptr;
};
absl::StatusOr<ShippedArchive> shipped_archive(folder::FolderLevels& originals, const ShippedDataFile& shipped);

// The data file's bytes decompressed, whichever form they are shipped in (told apart by the bytes: a block
// set at the stored form's start, else an entry table that reads to its end, else a plain stored form); an
// error says why they are neither.
absl::StatusOr<std::vector<u8>> decompress_shipped(std::span<const u8> bytes, forge::ForgeVariant variant,
                                                   const forge::ChecksumVerdict& checksums);

// `outside` (a decompressed data file carved as `like` is, in its regions) with the bytes of each object of
// `like` (carved from the same archive's data file): where their objects lie at the same places with the same
// lengths; nothing otherwise.
std::optional<std::vector<u8>> with_objects_of(const Level& like, std::span<const u8> outside);

}  // namespace anvil::mods
