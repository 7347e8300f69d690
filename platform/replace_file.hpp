// Output that never harms what it writes to (posix/output_target.hpp says what a path may name there):
//  * A regular file, new or existing (at the end of any symbolic links), appears whole or not at all:
//    the output goes to a temporary `.NAME.anvilrt-tmp-XXXXXX` beside it, is flushed and synced to the
//    disk, then renamed over it. What a user expects kept is kept: on POSIX the replaced file's mode, and
//    its owner and group when this user may set them (a new file gets 0666 less the umask); on Windows
//    its attributes and ACL (ReplaceFileW). The temporary goes on any error, when the AtomicFile is
//    dropped without commit(), and on an interrupt (temp_file.hpp).
//  * Standard output ("-"), a descriptor path (/dev/stdout), a device (/dev/null, NUL), a FIFO or a
//    socket is written as it is: nothing is created beside it or renamed over it (a failed write may
//    leave part of the output there; nothing else could be done with a pipe).
//  * A folder is refused; so is, on Windows, a file another program holds open without sharing it (the
//    game running): one line naming the file and why.
// Paths are UTF-8.
#pragma once

#include <absl/status/status.h>

#include <cstdio>
#include <span>
#include <string>

#include <cstdint>

#include "platform/temp_file.hpp"

namespace anvil::platform {

struct OutputOptions {
  // The target is the input file being replaced (`patch --in-place`): it must be an existing regular
  // file, and a read-only one -- no write bit in its mode, or not writable by this user; on Windows its
  // read-only attribute -- is refused unless `force`.
  bool in_place = false;
  bool force = false;
  // The target is the name itself, in a folder others may write to (`serve`'s "Write a copy"): nothing
  // there is followed. A symbolic link, a FIFO or a device at the name (put there after any check the
  // caller made) is replaced by the new file, never written through, on POSIX; on Windows a link or
  // junction there is refused. A regular file is replaced as above.
  bool at_name = false;
};

class AtomicFile {
 public:
  AtomicFile() = default;
  ~AtomicFile();
  AtomicFile(const AtomicFile&) = delete;
  AtomicFile& operator=(const AtomicFile&) = delete;

  // Resolves `target` and opens the temporary beside it, or the target itself when it is not a regular
  // file. Errors are one line naming `target`.
  absl::Status open(const std::string& target, const OutputOptions& options = {});
  std::FILE* stream() { return file_; }
  // Whether the output goes to a temporary regular file, which can be read back before commit().
  bool to_temporary() const { return temp_.held(); }
  // That temporary's path (to_temporary() only).
  const std::string& temp_path() const { return temp_.path(); }
  // Flushes; for a temporary, syncs it and renames it over the target.
  absl::Status commit();

 private:
  void discard();
  std::string target_;  // as given, for messages
  std::string final_;   // the regular file the temporary replaces (links resolved)
  TempFile temp_;       // none when writing through a device, FIFO or terminal
  std::FILE* file_ = nullptr;
};

// Writes `bytes` to `target` as above.
absl::Status write_file_atomically(const std::string& target, std::span<const std::uint8_t> bytes);

// Whether `target` names this process's standard output ("-", /dev/stdout, or the same file): a command
// then prints its summary on stderr instead.
bool writes_standard_output(const std::string& target);

}  // namespace anvil::platform
