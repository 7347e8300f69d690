// On POSIX, what an output path names, found before anything is written, so that writing never harms it:
//  * "-", or a path to one of this process's descriptors (/dev/stdout, /dev/fd/N, /proc/self/fd/N):
//    that descriptor, written as it is (shared with the shell: its offset, its append mode);
//  * a character or block device, a FIFO, a socket (/dev/null, a named pipe): opened and written as it
//    is, never replaced;
//  * a regular file, or a name that does not exist yet: the file to replace or create atomically;
//  * a folder: refused.
// Symbolic links are followed through the whole chain (a relative one relative to its own folder):
// the file at the end is what is replaced, so the links stay links, and a dangling link's target is
// created.
#pragma once

#include <absl/status/statusor.h>
#include <sys/stat.h>

#include <string>

namespace anvil::platform {

struct OutputTarget {
  enum class Kind {
    kDescriptor,  // fd: a descriptor this process holds open for writing
    kSpecial,     // path: a device, FIFO or socket, to open and write as it is
    kNewFile,     // path: a file to create (its folder exists)
    kRegularFile  // path: an existing regular file to replace; st: its stat
  };
  Kind kind = Kind::kNewFile;
  int fd = -1;
  std::string path;  // symbolic links resolved
  struct stat st {};
};

// Resolves `target` as above. Errors are one line naming `target`: "OUT: is a directory",
// "OUT: too many levels of symbolic links", "OUT: <folder>: No such file or directory", …
absl::StatusOr<OutputTarget> resolve_output(const std::string& target);

// `target` as a name alone (OutputOptions::at_name): its folder resolved, the name itself never followed.
// A regular file there is kRegularFile; nothing, a link, or anything else but a folder is kNewFile, the
// name the new file is renamed over.
absl::StatusOr<OutputTarget> resolve_name(const std::string& target);

}  // namespace anvil::platform
