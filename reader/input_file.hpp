// Level data input, behind one interface whatever the path names:
//  * a regular file is mapped read-only into memory (no copy, no per-byte calls);
//  * "-" (standard input), and any other readable path that is not a regular file -- /dev/stdin, a FIFO,
//    a process substitution `<(…)`, a character device -- is read whole into memory (a pipe cannot be
//    mapped, and has no size to map). Such a stream may be endless (/dev/zero, `yes |`), so it is read
//    up to a limit, stream_limit(), and refused past it in one line that names the limit.
#pragma once

#include <absl/status/statusor.h>

#include <span>
#include <string>
#include <vector>

#include "model/primitives.hpp"

namespace anvil {

class InputFile {
 public:
  static absl::StatusOr<InputFile> open(const std::string& path);
  // The most bytes read from a stream: $ANVILRT_STREAM_LIMIT (bytes) when set to a number, otherwise
  // half of this machine's memory.
  static std::size_t stream_limit();
  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&& other) noexcept;
  ~InputFile();

  std::span<const u8> bytes() const { return {data_, size_}; }
  // For a mapped file: drops the mapped pages that hold bytes [offset, offset + length) from this
  // process's memory (its RSS); the bytes stay readable, and are faulted in again from the page cache if
  // read. For a caller that is done with a part of a large file. Clamped to the file; never fails. For
  // bytes read into memory it does nothing (they have nowhere to come back from).
  void release(std::size_t offset, std::size_t length) const;
  // Bytes [offset, offset + length) (clamped to the file) without touching the mapping: read with pread
  // into `buffer` for a mapped file, a view of the bytes in memory otherwise. For a few small pieces
  // scattered over a large file (an archive's tables): a touch of the mapping there would map the large
  // page-cache folio around each piece into this process (a megabyte or more each, on Linux 6.16+ ext4).
  std::span<const u8> read_at(std::size_t offset, std::size_t length, std::vector<u8>& buffer) const;
  const std::string& path() const { return path_; }
  // The open file of a mapped input (kept open with the mapping), for a copy the kernel makes without
  // mapping the bytes (copy_file_range); -1 for bytes read into memory.
  int fd() const { return fd_; }

 private:
  InputFile() = default;
  void unmap();
  std::string path_;
  const u8* data_ = nullptr;
  std::size_t size_ = 0;
  bool mapped_ = false;
  int fd_ = -1;
  std::vector<u8> read_;  // the bytes of an input that is read, not mapped
};

}  // namespace anvil
