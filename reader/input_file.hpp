// Level data input, behind one interface whatever the path names:
//  * a regular file is mapped read-only into memory (no copy, no per-byte calls);
//  * "-" (standard input), and any other readable path that is not a regular file -- /dev/stdin, a FIFO,
//    a process substitution `<(…)`, a character device -- is read whole into memory (a pipe cannot be
//    mapped, and has no size to map). Such a stream may be endless (/dev/zero, `yes |`), so it is read
//    up to a limit, stream_limit(), and refused past it in one line that names the limit.
#pragma once

#include <absl/status/statusor.h>

#include <cstdio>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/primitives.hpp"
#include "platform/mapped_file.hpp"

namespace anvil {

class InputFile {
 public:
  static absl::StatusOr<InputFile> open(const std::string& path);
  // The regular file that `stream` has written (flushed), mapped for reading back; `name` is its path()
  // for messages.
  static absl::StatusOr<InputFile> reopen(std::FILE* stream, const std::string& name);
  // The most bytes read from a stream: $ANVILRT_STREAM_LIMIT (bytes) when set to a number, otherwise
  // half of this machine's memory.
  static std::size_t stream_limit();
  InputFile(InputFile&& other) noexcept = default;
  InputFile& operator=(InputFile&& other) noexcept = default;

  std::span<const u8> bytes() const { return bytes_; }
  // For a mapped file: drops the mapped pages that hold bytes [offset, offset + length) from this
  // process's memory (its RSS); the bytes stay readable, and are faulted in again from the page cache if
  // read. For a caller that is done with a part of a large file. Clamped to the file; never fails. For
  // bytes read into memory it does nothing (they have nowhere to come back from).
  void release(std::size_t offset, std::size_t length) const;
  // Bytes [offset, offset + length) (clamped to the file) without touching the mapping: read at the
  // offset into `buffer` for a mapped file, a view of the bytes in memory otherwise. For a few small pieces
  // scattered over a large file (an archive's tables): a touch of the mapping there would map the large
  // page-cache folio around each piece into this process (a megabyte or more each, on Linux 6.16+ ext4).
  std::span<const u8> read_at(std::size_t offset, std::size_t length, std::vector<u8>& buffer) const;
  // Bytes [offset, offset + length) (clamped to the file) handed to `each` in pieces of a megabyte, read as
  // read_at() reads: for one pass over much of a large file (a checksum) that is not otherwise read, where
  // faulting the mapping in costs several times a read (3.5 x on the VMs measured).
  void read_in_pieces(std::size_t offset, std::size_t length,
                      const std::function<void(std::span<const u8>)>& each) const;
  // For a mapped file that this run will not read again, about to be replaced by a new one: releases the
  // whole mapping and tells the system the file's cached pages may go, so that the new file's pages take
  // their memory rather than memory no process has used (which a virtual machine's host backs slowly).
  // The bytes stay readable, from the disk. Nothing for bytes read into memory.
  void forget_cached() const;
  const std::string& path() const { return path_; }
  // The open file of a mapped input (kept open with the mapping), for a copy the kernel makes without
  // mapping the bytes (platform::ReadableFile::copy_to); null for bytes read into memory.
  const platform::ReadableFile* source() const { return file_ ? &*file_ : nullptr; }

 private:
  InputFile() = default;
  static absl::StatusOr<InputFile> from(platform::ReadableFile file, const std::string& path);
  std::string path_;
  std::optional<platform::ReadableFile> file_;  // a regular file, kept open with its mapping
  platform::Mapping mapping_;
  std::vector<u8> read_;  // the bytes of an input that is read, not mapped
  std::span<const u8> bytes_;
};

}  // namespace anvil
