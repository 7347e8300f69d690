// A file only this user can read, for a secret that must reach another program by a path rather than
// on its command line, which `ps` shows every user of the machine: `anvilrt serve --open`'s page that
// sends the browser on to the URL with the token, as Jupyter's is. It is written in a new folder of
// its own under the system's temporary folder (POSIX: $TMPDIR or /tmp, the folder 0700 and the file
// 0600; Windows: %TEMP%, the folder with an ACL granting this user alone, which its file inherits),
// and both go when the PrivateFile is dropped. Only a kill that runs no destructor leaves them.
#pragma once

#include <absl/status/statusor.h>

#include <string>
#include <string_view>

namespace anvil::platform {

class PrivateFile {
 public:
  // Writes `contents` to a new file `name` (a plain file name) in a new folder `<prefix>XXXXXX`. An error
  // (one line) when either cannot be made.
  static absl::StatusOr<PrivateFile> create(std::string_view prefix, std::string_view name, std::string_view contents);
  PrivateFile() = default;
  PrivateFile(PrivateFile&& other) noexcept;
  PrivateFile& operator=(PrivateFile&& other) noexcept;
  PrivateFile(const PrivateFile&) = delete;
  ~PrivateFile() { remove(); }

  // The file's path (UTF-8), empty when none is held.
  const std::string& path() const { return path_; }

 private:
  void remove();  // the file, then its folder
  std::string folder_;
  std::string path_;
};

}  // namespace anvil::platform
