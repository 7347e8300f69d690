// Output files that appear whole or not at all: written to a temporary file in the target's folder,
// flushed and fsync'ed, then renamed over the target. Dropped without commit(), the temporary goes.
#pragma once

#include <absl/status/status.h>

#include <cstdio>
#include <span>
#include <string>

#include "model/primitives.hpp"

namespace anvil {

class AtomicFile {
 public:
  AtomicFile() = default;
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Creates the temporary file beside `target`.
  absl::Status open(const std::string& target);
  std::FILE* stream() { return file_; }
  // The temporary file, for a caller that reads back what it wrote before commit().
  const std::string& temp_path() const { return temp_; }
  // Flushes, syncs and renames the temporary over the target.
  absl::Status commit();

 private:
  void discard();
  std::string target_;
  std::string temp_;
  std::FILE* file_ = nullptr;
};

// Writes `bytes` to `target` atomically.
absl::Status write_file_atomically(const std::string& target, std::span<const u8> bytes);

}  // namespace anvil
