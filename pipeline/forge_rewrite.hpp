// The pipelines over `.forge` archives that read and write (FORGE.md 4): the round trip, and rewriting an
// archive with new decompressed bytes for some data files, read back and checked before it is kept.
// Above reader/ and writer/, so that neither includes the other.
#pragma once

#include <absl/status/statusor.h>

#include <cstdio>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/forge/archive.hpp"
#include "platform/replace_file.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/input_file.hpp"
#include "writer/forge/archive_writer.hpp"
#include "writer/forge/repack.hpp"

namespace anvil::forge {

// write(read(x)): every table re-encoded from its fields and every data file's stored form re-encoded
// from its declaration (a data file that does not read is an error). Equal to `bytes` for every archive
// the reader accepts.
absl::StatusOr<std::vector<u8>> round_trip(std::span<const u8> bytes);

// New decompressed bytes for one data file, of any size (FORGE.md 5: a data file that grows past its
// place moves to the end of the archive).
struct DataFileChange {
  std::size_t index = 0;
  std::vector<u8> decoded;
};

struct ChangeReport {
  std::size_t index = 0;
  RepackReport blocks;
  Placement placement;
};

// A data file to append (FORGE.md 6), by its decompressed bytes: stored like the archive's first
// compressed data file (writer/forge/repack.hpp pack_like), plain when the archive has none or no checksum
// rule, or when `plain` says so.
struct DataFileAddition {
  std::string name;
  u64 file_id = 0;  // 32 bits before archive version 27
  u32 file_type = 0;
  std::vector<u8> decoded;
  bool plain = false;
};

// Every change of one rewrite: new bytes for some data files, some removed (indices in the archive),
// some appended (at the end of the last table section, in this order).
struct ArchiveEdit {
  std::vector<DataFileChange> changes;
  std::vector<std::size_t> removed;
  std::vector<DataFileAddition> added;
};

struct EditReport {
  std::vector<ChangeReport> changes;  // in the order given
  std::vector<ChangeReport> added;    // in the order given; `index` in the written archive
  bool index_table_moved = false;     // the last section's tables, when a data file was added
  bool name_table_moved = false;
};

// Writes the archive `bytes` with `changes` applied into `out` (FORGE.md 4) and returns what became of
// each changed data file. Nothing is checked after writing: rewrite_file() does that. `input`, when given,
// is the mapped file `bytes` views: the pages the archive's checksum vote reads are dropped as it goes.
// `checksums`: the archive's verdict (reader/forge/data_files.hpp archive_checksums()), taken here when
// not given and a compressed data file changes. A changed data file with a damaged block is refused (its
// DataLoss error), as is a changed compressed data file when the rule is none; a re-compressed block gets
// its checksum by the rule; untouched data files, damaged or not, are copied byte for byte.
absl::StatusOr<std::vector<ChangeReport>> rewrite(std::span<const u8> bytes, std::span<const DataFileChange> changes,
                                                  ByteSink& out, const InputFile* input = nullptr,
                                                  const ChecksumVerdict* checksums = nullptr);
// The same with data files removed and added (FORGE.md 6).
// `layout`, when given, is the archive's data-file layout, which the caller found already (read_archive()).
absl::StatusOr<EditReport> rewrite(std::span<const u8> bytes, const ArchiveEdit& edit, ByteSink& out,
                                   const InputFile* input = nullptr, const ChecksumVerdict* checksums = nullptr,
                                   std::optional<u8> layout = {});

// Reads `written` back and checks it against the archive it was written from: every data file not in
// `changes` byte-identical (stored bytes and header), every changed one decompressing to its new bytes.
// `untouched_copied`: the original was copied into `written` by the kernel (FileSink), so an untouched
// data file is checked by its tables' entries and its header only, and its stored bytes are not read
// again (a patch of one data file of a large archive then reads back only what it wrote).
// `original_file` and `written_file`, when given, are the inputs the two spans map: their tables are then
// read with pread (read_archive). The changed data files' blocks are checked against `checksums`, the
// verdict they were written by (the default, n/a, checks none).
absl::Status check_rewrite(std::span<const u8> original, std::span<const u8> written,
                           std::span<const DataFileChange> changes, bool untouched_copied = false,
                           const InputFile* original_file = nullptr, const InputFile* written_file = nullptr,
                           const ChecksumVerdict& checksums = {});
// The same for an edit with removals and additions: the written archive lists the data files not removed,
// in their order, then the added ones, each with its name, id, file_type and decompressed bytes.
// `layout`: as rewrite() takes it; the written archive is read in the original's.
absl::Status check_rewrite(std::span<const u8> original, std::span<const u8> written, const ArchiveEdit& edit,
                           bool untouched_copied = false, const InputFile* original_file = nullptr,
                           const InputFile* written_file = nullptr, const ChecksumVerdict& checksums = {},
                           std::optional<u8> layout = {});

// rewrite() into a temporary file beside `target`, check_rewrite() on it, then the rename: a failure at
// any step leaves `target` as it was. `options`: as AtomicFile::open takes them (--in-place, --force).
// `input`, when given, is the mapped file `bytes` views: the kernel copies it into the temporary, and
// only the tables and changed data files are written and read back here. `checksums`: as rewrite() takes
// it; when not given, the archive's vote is taken first. `layout`: as rewrite() takes it.
absl::StatusOr<std::vector<ChangeReport>> rewrite_file(
    std::span<const u8> bytes, std::span<const DataFileChange> changes, const std::string& target,
    const platform::OutputOptions& options = {}, const InputFile* input = nullptr,
    const ChecksumVerdict* checksums = nullptr, std::optional<u8> layout = {});
// The same for an edit with removals and additions.
absl::StatusOr<EditReport> rewrite_file(std::span<const u8> bytes, const ArchiveEdit& edit, const std::string& target,
                                        const platform::OutputOptions& options = {}, const InputFile* input = nullptr,
                                        const ChecksumVerdict* checksums = nullptr, std::optional<u8> layout = {});

// What a caller reads of the written file once it is checked, while the kernel still writes it back to the
// disk (a mod's undo data and content stamp: pipeline/mods/archive_stage.cpp).
using WrittenRead = std::function<absl::Status(const InputFile& written)>;

// What rewrite_file() does between opening its temporary and renaming it: rewrite() into `file` (a new,
// empty regular file at `path`), flushed, then read back and checked with check_rewrite(), then handed to
// `then` when given. Errors name `target` (what the file is to become) or the archive. The caller syncs and
// puts the file in place (a game folder's transaction: pipeline/folder_transaction.hpp).
absl::StatusOr<EditReport> rewrite_into(std::span<const u8> bytes, const ArchiveEdit& edit, std::FILE* file,
                                        const std::string& path, const std::string& target, const InputFile* input,
                                        const ChecksumVerdict& checksums, std::optional<u8> layout = {},
                                        const WrittenRead& then = {});

}  // namespace anvil::forge
