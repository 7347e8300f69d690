// Making a change to files survive a crash or a power loss (pipeline/folder_transaction.hpp): a file's
// bytes pushed to the disk, a folder's entries (names made, renamed, removed) pushed to the disk, and a
// rename that replaces its target in one step. Messages are one line naming the path, with the system's
// reason; a full disk is ResourceExhausted, so that a caller can tell it apart.
#pragma once

#include <absl/status/status.h>

#include <cstdio>
#include <string>

namespace anvil::platform {

// Flushes `file`'s buffers and waits until its bytes are on the disk (POSIX: fflush, fsync).
absl::Status sync_file(std::FILE* file, const std::string& path);
// Waits until the entries of folder `dir` are on the disk (POSIX: fsync of the folder opened read-only).
absl::Status sync_folder(const std::string& dir);
// Renames `from` over `to` (both in one folder): `to` is the old file or the new one, never neither
// (POSIX: rename).
absl::Status rename_over(const std::string& from, const std::string& to);
// Removes the file `path`; a path where nothing is is no error.
absl::Status remove_file(const std::string& path);
// Whether this process may write the file `path` (POSIX: access W_OK, and a mode with a write bit, so that
// root, whom access() lets write anything, still sees a read-only file as such).
bool writable(const std::string& path);

}  // namespace anvil::platform
