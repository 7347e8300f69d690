// Writing a `.forge` archive back (FORGE.md 4): the original bytes, with every table re-encoded from
// its fields over them, and the data files given new stored forms placed in their old place when they
// fit (the rest of it padded with the byte that padded it) or moved to the end, aligned as the other
// data files are, with their 440-byte header. Untouched data files and padding are copied byte for
// byte; nothing else moves.
#pragma once

#include <absl/status/status.h>
#include <absl/status/statusor.h>

#include <cstdio>
#include <span>
#include <thread>
#include <vector>

#include "model/forge/archive.hpp"
#include "model/forge/stored_data_file.hpp"
#include "platform/mapped_file.hpp"

namespace anvil::forge {

// Where the written archive goes: bytes at an offset, past the end extending it.
class ByteSink {
 public:
  virtual ~ByteSink() = default;
  virtual absl::Status write_at(u64 offset, std::span<const u8> bytes) = 0;
  // The original archive, as the base the changes are written over: write_at(0, original) unless the
  // sink has a cheaper way.
  virtual absl::Status write_original(std::span<const u8> original) { return write_at(0, original); }
};

class VectorSink : public ByteSink {
 public:
  absl::Status write_at(u64 offset, std::span<const u8> bytes) override;
  std::vector<u8>& bytes() { return bytes_; }

 private:
  std::vector<u8> bytes_;
};

// `source`, when not null, is the open file the original bytes were mapped from: write_original() then
// has the kernel copy it (platform::ReadableFile::copy_to), so that the original's pages are never mapped into this process
// (a patch of one data file of a large archive keeps a small RSS).
class FileSink : public ByteSink {
 public:
  explicit FileSink(std::FILE* file, const platform::ReadableFile* source = nullptr) : file_(file), source_(source) {}
  absl::Status write_at(u64 offset, std::span<const u8> bytes) override;
  absl::Status write_original(std::span<const u8> original) override;
  // Writes the original now, before the changes are known, and starts its write-back to the disk: the
  // data files' re-compression then overlaps the disk's work instead of waiting for it in the final sync.
  // write_original() then has nothing left to do. Only with a `source` (a kernel copy).
  absl::Status prepare(std::span<const u8> original);
  // Whether write_original() was a kernel copy (and so read no page of the original here).
  bool copied_by_kernel() const { return copied_by_kernel_; }
  // The first failed write, if any ("cannot write at offset 0x…: <reason>"): a caller tells the output's
  // fault from the archive's by it.
  const absl::Status& failure() const { return failure_; }

 private:
  std::FILE* file_;
  const platform::ReadableFile* source_;
  bool copied_by_kernel_ = false;
  bool prepared_ = false;
  std::jthread writeback_;  // joined when the sink is destroyed
  absl::Status failure_;
};

// A data file's new stored form.
struct Replacement {
  std::size_t index = 0;  // in Archive::files
  StoredDataFile stored;
};

struct Placement {
  std::size_t index = 0;
  bool moved = false;
  u64 header_offset = 0;  // the index entry's new offset
  u64 stored_size = 0;    // the index entry's new size
};

// A data file to append (FORGE.md 6): its entries' fields and stored form. Its 440-byte header holds its
// name and 312 zero bytes; its name entry's other fields are zero and its raw_size its stored size (the
// readings name none of those bytes, so nothing is invented for them).
struct AppendedDataFile {
  std::string name;  // at most 128 bytes
  u64 file_id = 0;   // 32 bits before archive version 27
  u32 file_type = 0;
  StoredDataFile stored;
};

// Data files removed (indices in Archive::files) and appended, with the written archive's tables.
// A removed data file loses its index and name entries (the later entries of its section move up, the
// freed slots at the end of its tables are zeroed), and its bytes stay where they were, unreferenced.
// An added one is appended at the end of the archive, aligned as the others, and listed at the end of the
// last table section; when that section's index or name table has no room after it to grow in place (up
// to the next structure of the archive, inside the file), that table moves to the end of the archive (after
// the appended data files, 16-aligned) and the section's offset follows.
struct TableChanges {
  std::vector<std::size_t> removed;
  std::vector<AppendedDataFile> added;
};

struct TableReport {
  std::vector<Placement> added;  // in the order given; `index` in the written archive's data files
  bool index_table_moved = false;
  bool name_table_moved = false;
};

// Writes `archive` (read from `original`) to `out` with `replacements` (and `tables`) applied; `archive`
// is not changed. What each replaced data file became, in the order given.
absl::StatusOr<std::vector<Placement>> write_archive(std::span<const u8> original, const Archive& archive,
                                                     std::span<const Replacement> replacements, ByteSink& out,
                                                     const TableChanges& tables = {}, TableReport* report = nullptr);

// The alignment of the archive's data file headers: the largest power of two (up to 64 KiB) that
// divides every one of their offsets.
u64 data_file_alignment(const Archive& archive);

}  // namespace anvil::forge
