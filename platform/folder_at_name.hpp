// A new folder put at a name others may write to (`serve`'s "Write a copy" of a game folder, `patch DIR
// -o OUTDIR`), as platform::OutputOptions::at_name puts a file: the folder is made and filled under a
// name of its own beside the target, then renamed to the name in one step. Nothing at the name is
// followed: a symbolic link (on Windows also a junction), a file or a folder that is not empty put there
// after any check the caller made is refused, never written through; an empty folder there is replaced.
// Paths are UTF-8.
#pragma once

#include <absl/status/status.h>

#include <string>

namespace anvil::platform {

// Puts the folder `from` (made by this process, in the folder of `to`) at the name `to`: a new name, or
// in place of an empty folder. Refused (FailedPrecondition, one line naming `to`, `from` left as it is)
// when anything else is there. POSIX: rename(2), which replaces only an empty folder and never follows a
// link at the name; Windows: an empty folder that is no reparse point removed, then MoveFileExW.
absl::Status put_folder_at(const std::string& from, const std::string& to);

}  // namespace anvil::platform
