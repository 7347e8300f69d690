// Patching the data files of an archive as one document: a layer over the single-level engine
// (patch/patch.hpp), which routes each operation to the data file it addresses and runs each data
// file's operations there, in order, all or nothing across data files.
//
// The document (what `anvilrt dump FORGE` prints):
//
//   { "format": "anvilrt/1", "game": "ac2",
//     "datafiles": { "<name>": { "size": <decompressed bytes>, "objects": { "<key>": {...}, ... } }, ... } }
//
// Each member of "datafiles" is the document of FORMAT.md section 4 of that data file, without its
// "format" and "game". Operations address it in two ways:
//  * `/datafiles/<name>/objects/<key>/...` (and `/datafiles/<name>/size`): that data file;
//  * `/objects/<key>/...`, the pointer of a single level: the one data file that holds an object with
//    that key, so that a patch made on an extracted data file applies to the archive unchanged. A key
//    held by several data files is refused, naming them. Finding the key reads every data file; the
//    first form reads only the one it names.
// `move` and `copy` work within one data file. After a `replace` (or `add`) of `…/objects/<key>/id`, or of
// a whole object, the new key also addresses the object (in its data file).
// Bulk operations range over every data file, or over those of their optional member
// `"datafiles": ["<name>", ...]`; their `"objects"` keys are looked up among those data files as above.
// A bulk operation fails (exit 1) only when it matches nothing in every data file it ranges over.
//
// The outcome is the outcome of applying the operations one after another to the whole document: the
// error is that of the first operation that fails, and then nothing may be written.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "patch/archive_keys.hpp"
#include "patch/patch.hpp"
#include "reader/level_set.hpp"

namespace anvil::patch {

struct DataFilePatch {
  std::size_t datafile = 0;  // index into the LevelSet
  // The data file's edits (indices into the pieces of set.level(datafile)); the changes' pointers are
  // pointers into the archive document (/datafiles/<name>/objects/...).
  PatchResult result;
};

struct ArchivePatchOutcome {
  std::optional<PatchError> error;  // set: nothing may be written
  // Every data file an operation reached, ascending (with no edits when only `test`s reached it).
  std::vector<DataFilePatch> datafiles;
  // With PatchOptions::record_changes: the passed `test`s of "/format" and "/game".
  std::vector<Change> document_changes;

  std::size_t edited_objects() const;
  std::size_t edited_datafiles() const;
};

// Applies `patch` to the data files of `set`; never throws. PatchOptions::release_input is not used
// (the set decides what stays in memory). Data files are read through set.level() and released again.
// `known`: the ids each data file holds, when the caller knows them (archive_keys.hpp).
ArchivePatchOutcome apply_archive_patch(LevelSet& set, const rapidjson::Value& patch, const PatchOptions& options = {},
                                        const archive::KnownIds* known = nullptr);
ArchivePatchOutcome apply_archive_patch_text(LevelSet& set, std::string_view patch_json,
                                             const PatchOptions& options = {});

// "/datafiles/<name>" (RFC 6901-escaped).
std::string datafile_pointer(std::string_view name);

}  // namespace anvil::patch
