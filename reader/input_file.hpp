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
  const std::string& path() const { return path_; }

 private:
  InputFile() = default;
  std::string path_;
  const u8* data_ = nullptr;
  std::size_t size_ = 0;
};

}  // namespace anvil
