// A new `.forge` archive laid out from scratch (FORGE.md 1), for `pack`, `compact` and `gen --forge`:
// the archive header at 0 (its kept bytes up to H), the file-data header at H, then each table section
// followed by its index table and its name table, then the data files in order, each one's 440-byte
// header at an offset aligned as asked (version 27: none), its stored bytes right after it. Offsets and sizes are
// derived from the layout; every other field is the caller's. Data files are given one at a time, so that only one data
// file's stored bytes are held.
#pragma once

#include <absl/status/status.h>
#include <absl/status/statusor.h>

#include <optional>
#include <span>
#include <vector>

#include "model/forge/archive.hpp"
#include "writer/forge/archive_writer.hpp"

namespace anvil::forge {

// What the archive keeps of its own, in the declarations' own structures: the header (its `unknown` byte,
// version and the bytes up to H; H follows from them), the file-data header's kept runs (S is laid out),
// and each table section's count and kept runs (its offsets are laid out). The sections' counts add up to
// the data files; none: one section of them all.
struct NewArchiveHead {
  ArchiveHeader header;  // its version lays out every table (FORGE.md 7)
  DataHeader data_header;
  std::vector<TableSection> sections;
  u64 alignment = 16;  // of each data file's 440-byte header: a power of two, 1 for none
};

// The head of a new archive that keeps `archive`'s own: its header, its file-data header's kept bytes, its
// sections with their counts, and `alignment` (pack and compact write an archive again from its head).
NewArchiveHead head_of(const Archive& archive, u64 alignment);

// One data file: its index entry's id, its name entry and 440-byte header as they are to be written
// (raw_size excepted), and the gap before it.
struct NewDataFile {
  u64 file_id = 0;              // a u32 before version 27
  NameEntry name;               // raw_size is set from `raw_size`
  std::optional<u32> raw_size;  // none: the stored size (FORGE.md 1: usually so)
  DataFileHeader header;
  u64 gap = 0;     // bytes left before its header beyond what the alignment needs (0 in pack and compact)
  u8 padding = 0;  // the byte that fills up to its header
};

// Where things went.
struct NewArchiveLayout {
  u64 first_header = 0;             // H
  std::vector<u64> sections;        // each section's offset
  std::vector<u64> header_offsets;  // each data file's 440-byte header
  std::vector<u64> stored_sizes;    // each data file's stored bytes
  u64 size = 0;
};

// A default 440-byte header for a data file: its name, NUL-padded, and 312 zero bytes.
DataFileHeader default_data_file_header(std::span<const u8> name);

// Writes the archive into a ByteSink: add() each data file in order, then finish(). The tables are
// written by finish(), at the places reserved for them at construction.
class NewArchiveWriter {
 public:
  // Errors of the head (a section count that does not add up is found by finish()): an alignment that
  // is not a power of two. `files`: how many data files add() will be given.
  static absl::StatusOr<NewArchiveWriter> open(NewArchiveHead head, std::size_t files, ByteSink& out);

  // The next data file and its stored bytes (FORGE.md 2, as encode_stored() makes them).
  absl::Status add(const NewDataFile& file, std::span<const u8> stored);

  // The tables, and `trailing` bytes of `padding` after the last data file.
  absl::StatusOr<NewArchiveLayout> finish(u64 trailing = 0, u8 padding = 0);

 private:
  NewArchiveWriter(NewArchiveHead head, std::size_t files, ByteSink& out);
  NewArchiveHead head_;
  std::size_t files_ = 0;
  ByteSink* out_ = nullptr;
  std::vector<IndexEntry> index_;
  std::vector<NameEntry> names_;
  NewArchiveLayout layout_;
  u64 end_ = 0;  // where the next data file may start
};

}  // namespace anvil::forge
