// A file's stamp: its size and last-modification time, to the system's own precision (nanoseconds on
// Linux, 100 ns on Windows; MinGW's std::filesystem::last_write_time gives whole seconds, too coarse to tell
// a file written this second from a copy of an older one).
#pragma once

#include <absl/status/statusor.h>

#include <cstdint>
#include <string>

namespace anvil::platform {

struct FileStamp {
  std::uint64_t size = 0;
  std::int64_t mtime_ns = 0;  // since 1970-01-01 UTC
};

// The stamp of the file at `path` (UTF-8), or an error naming it.
absl::StatusOr<FileStamp> file_stamp(const std::string& path);

}  // namespace anvil::platform
