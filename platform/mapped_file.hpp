// Input files: opened for reading, mapped read-only into memory, read at an offset without touching the
// mapping, and parts of a mapping given back. reader/input_file.hpp builds level input on these (what
// is mapped, what is read whole into memory, the limit on a stream).
// POSIX: open, mmap with MADV_SEQUENTIAL, madvise(MADV_DONTNEED), pread, copy_file_range. Windows:
// CreateFileW (UTF-16 path), CreateFileMappingW and MapViewOfFile, DiscardVirtualMemory (or nothing),
// ReadFile at an OVERLAPPED offset.
#pragma once

#include <absl/status/statusor.h>

#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <span>
#include <string>

#include "platform/native_handle.hpp"

namespace anvil::platform {

class ReadableFile {
 public:
  enum class Kind { kRegular, kFolder, kStream };  // a stream: a pipe, a terminal, a device, a socket

  // Opens `path` (UTF-8) for reading; a folder opens too (kind() says so). Errors: the system's words.
  static absl::StatusOr<ReadableFile> open(const std::string& path);
  // This process's standard input (left open when dropped).
  static ReadableFile standard_input();
  // The file that `stream` writes (a regular file or an anonymous one: file_stream.hpp), opened again
  // for reading from its start; `stream` is flushed by its owner first.
  static absl::StatusOr<ReadableFile> reopen(std::FILE* stream);
  ReadableFile(ReadableFile&& other) noexcept;
  ReadableFile& operator=(ReadableFile&& other) noexcept;
  ReadableFile(const ReadableFile&) = delete;
  ~ReadableFile();

  Kind kind() const { return kind_; }
  // A regular file's size in bytes.
  std::uint64_t size() const { return size_; }
  // The next bytes into `into`: how many (0 at the end). Interrupted reads are retried.
  absl::StatusOr<std::size_t> read(std::span<std::uint8_t> into);
  // Bytes at `offset` into `into`: how many (fewer only at the end of the file).
  absl::StatusOr<std::size_t> read_at(std::uint64_t offset, std::span<std::uint8_t> into) const;
  // Copies this regular file's first `size` bytes to the start of `out` (flushed first) inside the
  // kernel, without mapping them (POSIX: copy_file_range). False when the system cannot (another file
  // system, no such call); what `out` holds is then to be written again by the caller.
  bool copy_to(std::FILE* out, std::uint64_t size) const;
  // Tells the system that this file's cached pages will not be read again (its pages mapped by this
  // process stay), so their memory serves what is written next. A hint: never fails. POSIX:
  // posix_fadvise(POSIX_FADV_DONTNEED); Windows: nothing (its cache manager takes no such hint for a file).
  void forget_cached() const;
  NativeHandle handle() const { return handle_; }

 private:
  ReadableFile(NativeHandle handle, bool owned) : handle_(handle), owned_(owned) {}
  void close();
  NativeHandle handle_ = kNoHandle;
  bool owned_ = true;
  Kind kind_ = Kind::kStream;
  std::uint64_t size_ = 0;
};

// A regular file mapped read-only, whole, for reading front to back (the system is told so).
class Mapping {
 public:
  // `file` may be closed afterwards: the mapping holds what it needs. An empty file maps to no bytes.
  static absl::StatusOr<Mapping> map(const ReadableFile& file);
  Mapping() = default;
  Mapping(Mapping&& other) noexcept;
  Mapping& operator=(Mapping&& other) noexcept;
  Mapping(const Mapping&) = delete;
  ~Mapping();

  std::span<const std::uint8_t> bytes() const { return {data_, size_}; }
  // Drops the pages that hold bytes [offset, offset + length) from this process's memory (its resident
  // set); the bytes stay readable and come back from the page cache if read. Whole pages only (one that
  // also holds bytes outside the range may still be in use); clamped to the mapping; never fails.
  void release(std::size_t offset, std::size_t length) const;

 private:
  void unmap();
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
  NativeHandle section_ = kNoHandle;  // Windows: the file mapping object
};

}  // namespace anvil::platform
