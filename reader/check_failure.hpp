// The first check a structure failed, with where it failed: what the carver records for a near miss
// and what `build` and `patch` report.
#pragma once

#include <cstddef>
#include <optional>
#include <string>

namespace anvil {

struct CheckFailure {
  std::size_t offset = 0;  // file offset of the failing field (byte reader) or 0 (JSON reader)
  std::string path;        // field path: "instance/slots/materials" (bytes) or a JSON pointer
  std::string check;       // what the format demands: "material info class must be 0x995bfbf5"
  std::string found;       // what was there instead
  // Which element of the outermost structure's table (Heads, Bodies) was being read: the entry of a
  // decompressed data file (FORGE.md 3), which its path alone ("resources") does not tell.
  std::optional<std::size_t> element{};

  // "slot class must be known (found 0x12345678)"
  std::string what() const { return found.empty() ? check : check + " (found " + found + ")"; }
  // "instance/slots: slot class must be known (found 0x12345678)"
  std::string message() const { return path.empty() ? what() : path + ": " + what(); }
  // What near misses are counted by: the path and the check, not the value found.
  std::string kind() const { return path.empty() ? check : path + ": " + check; }
};

}  // namespace anvil
