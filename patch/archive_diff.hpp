// `diff` of two `.forge` archives, or of two decompressed data files: the patch that turns A's objects into
// B's (patch/diff.hpp, each data file's pointers under `/datafiles/<name>`), and per data file what else
// differs, so that a difference a patch cannot carry is named, never lost.
//
// Data files are matched by their unique names (model/forge/archive.hpp data_file_names()). A pair whose
// stored bytes, 440-byte header, id and name entry (but its raw_size, which follows the stored size) are
// equal is identical without being decompressed; only the others are decompressed (each block checked
// against the rule its own data file's blocks vote, FORGE.md 2, so that nothing else of the archive is read)
// and carved.
#pragma once

#include <absl/status/statusor.h>

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/forge/archive.hpp"
#include "patch/diff.hpp"
#include "reader/input_file.hpp"
#include "reader/level_source.hpp"

namespace anvil::patch {

enum class DataFileState {
  identical,
  only_in_a,
  only_in_b,
  changed,          // objects' fields only: `ops` carry it
  changed_outside,  // bytes outside the objects (or the objects' layout): `put` carries it
  stored,           // decompressed bytes equal, stored bytes not (compression, blocks, checksums)
};

// "identical", "only in A", "only in B", "changed", "changed outside objects", "stored differently".
std::string_view state_name(DataFileState state);

// Where two decompressed data files first differ outside their objects.
struct OutsideDifference {
  u64 offset = 0;      // in A's decompressed data file (A's size: B is longer)
  std::string where;   // "entry 2 'tex' header", "entry table", "entry 0 'x' body, outside objects", ...
  std::string reason;  // what the object diff said
};

// Where a data file lies in its archive.
struct DataFileSide {
  std::size_t index = 0;  // in archive.files
  std::string file_id;    // as the archive's version prints it (forge::format_id)
  u64 header_offset = 0;  // of its 440-byte header (version 27: its stored bytes)
  u64 stored_offset = 0;
  u64 stored_size = 0;
};

struct DataFileDiff {
  std::string name;                  // unique name (an archive), or empty (two data files)
  std::optional<DataFileSide> a, b;  // archives: where the data file lies in A and in B
  DataFileState state = DataFileState::identical;
  std::optional<OutsideDifference> outside;  // changed_outside
  // The archive offset in A of the first byte of its 440-byte header, index entry (id) or name entry that
  // differs from B's (raw_size aside): neither a patch nor `put` carries it.
  std::optional<u64> table_difference;
  std::vector<DiffOp> ops;     // changed: pointers /datafiles/<name>/objects/... (/objects/... for two data files)
  u64 a_size = 0, b_size = 0;  // decompressed sizes (0 when not decompressed)

  bool identical() const { return state == DataFileState::identical && !table_difference; }
};

struct ArchiveDiff {
  Game game = Game::ac2;
  std::vector<DataFileDiff> datafiles;  // A's order, then those only in B in B's order

  bool identical() const;
  // Every data file's operations, in that order: the patch of A that gives B's objects.
  std::vector<DiffOp> ops() const;
};

// One archive of a comparison: the file and its tables, its data-file layout resolved
// (forge::read_archive()) or to be found from the first of its data files that is read
// (forge::read_archive_tables(); the archive is then resolved in it).
struct ArchiveSide {
  const InputFile& file;
  forge::Archive& archive;
};

// Compares two archives, their changed data files carved as `game`, or, when it is not given, in the dialect
// of A's first changed data file that decides (forge::data_file_game(); then B's; then A's smallest,
// forge::detect_archive_game()): no data file is decompressed to find a layout or a dialect that none is
// read in. An error (a data file that does not read) names the archive (its path) and the data file.
absl::StatusOr<ArchiveDiff> diff_archives(ArchiveSide a, ArchiveSide b, std::optional<Game> game);

// Compares two decompressed data files (or a data file and a level file: each carved as `source_a`,
// `source_b` say) carved as `game`; the operations address the objects as a patch of a data file does.
DataFileDiff diff_data_files(std::span<const u8> a, const Source& source_a, std::span<const u8> b,
                             const Source& source_b, Game game);
// The same of two data files carved already (each in its own bytes, in its source's bodies, with its
// variant: carve_source()), so that one compared with several others is carved once.
DataFileDiff diff_data_files(const Level& la, const Source& source_a, const Level& lb);

// The whole comparison as one JSON document (docs/diff.md).
std::string archive_diff_json(const ArchiveDiff& diff, std::string_view a_path, std::string_view b_path,
                              std::string_view kind);

}  // namespace anvil::patch
