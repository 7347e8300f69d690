// Level data input: a file mapped read-only into memory (no copy, no per-byte calls).
#pragma once

#include <absl/status/statusor.h>

#include <span>
#include <string>

#include "model/primitives.hpp"

namespace anvil {

class InputFile {
 public:
  static absl::StatusOr<InputFile> open(const std::string& path);
  InputFile(InputFile&& other) noexcept;
  InputFile& operator=(InputFile&& other) noexcept;
  ~InputFile();

  std::span<const u8> bytes() const { return {data_, size_}; }
  // Drops the mapped pages that hold bytes [offset, offset + length) from this process's memory (its
  // RSS); the bytes stay readable, and are faulted in again from the page cache if read. For a caller
  // that is done with a part of a large file. Clamped to the file; never fails.
  void release(std::size_t offset, std::size_t length) const;
  const std::string& path() const { return path_; }

 private:
  InputFile() = default;
  std::string path_;
  const u8* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace anvil
