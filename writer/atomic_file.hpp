// Output that never harms what it writes to (output_target.hpp says what a path may name):
//  * A regular file, new or existing (at the end of any symbolic links), appears whole or not at all:
//    the output goes to a temporary `.NAME.anvilrt-tmp-XXXXXX` beside it, is flushed and fsync'ed, then
//    renamed over it. A replaced file's mode is kept, and its owner and group when this user may set
//    them; a new file gets 0666 less the umask. The temporary goes on any error, when the AtomicFile is
//    dropped without commit(), and on SIGINT, SIGTERM and SIGHUP (temp_file.hpp).
//  * Standard output ("-"), a descriptor path (/dev/stdout), a device, a FIFO or a socket is written as
//    it is: nothing is created beside it or renamed over it (a failed write may leave part of the output
//    there; nothing else could be done with a pipe).
//  * A folder is refused.
#pragma once

#include <absl/status/status.h>

#include <cstdio>
#include <span>
#include <string>

#include "model/primitives.hpp"
#include "writer/temp_file.hpp"

namespace anvil {

struct OutputOptions {
  // The target is the input file being replaced (`patch --in-place`): it must be an existing regular
  // file, and a read-only one -- no write bit in its mode, or not writable by this user -- is refused
  // unless `force`.
  bool in_place = false;
  bool force = false;
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
absl::Status write_file_atomically(const std::string& target, std::span<const u8> bytes);

}  // namespace anvil
