// The bounded output names of "Write a copy" (serve/output_name.hpp).
#include "serve/output_name.hpp"

#include <absl/strings/str_cat.h>

#include <filesystem>

#include "platform/paths.hpp"

namespace anvil::serve {

absl::StatusOr<std::string> output_target(std::string_view name, const std::string& folder,
                                          const std::string& input_path, bool replace_existing, bool folder_copy) {
  if (name.empty()) return absl::InvalidArgumentError("name the copy: a file name");
  if (name.size() > 200) return absl::InvalidArgumentError("the copy's name is longer than 200 characters");
  for (char c : name)
    if (c == '/' || c == '\\' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      return absl::InvalidArgumentError(
          "the copy's name must be a file name alone (no folder, no separator): it is written in " + folder);
  if (name.front() == '.') return absl::InvalidArgumentError("the copy's name must not start with a dot");
  // UTF-8 in and out (platform/paths.hpp): a std::string path on Windows would be read in the ANSI code page.
  const std::filesystem::path target = platform::path_of(folder) / platform::path_of(name);
  const std::string target_utf8 = platform::utf8_of(target);
  std::error_code error;
  if (std::filesystem::equivalent(target, platform::path_of(input_path), error) && !error)
    return absl::InvalidArgumentError("the copy cannot replace the input: the editor never writes it");
  // A link at the name (on Windows a symbolic link or a junction) would be written through, out of the folder.
  if (platform::is_link(target_utf8))
    return absl::InvalidArgumentError(
        absl::StrCat(target_utf8, " exists and is a link: the copy is not written through it"));
  std::filesystem::file_status status = std::filesystem::symlink_status(target, error);
  if (folder_copy && std::filesystem::exists(status)) {
    if (!std::filesystem::is_directory(status) || !std::filesystem::is_empty(target, error) || error)
      return absl::InvalidArgumentError(
          absl::StrCat(target_utf8, " exists: a game folder's copy is written into a new folder or an empty one"));
    return target_utf8;
  }
  if (std::filesystem::exists(status)) {
    if (!std::filesystem::is_regular_file(status))
      return absl::InvalidArgumentError(absl::StrCat(target_utf8, " exists and is not a regular file"));
    if (!replace_existing) return absl::AlreadyExistsError(absl::StrCat(target_utf8, " exists: confirm to replace it"));
  }
  return target_utf8;
}

}  // namespace anvil::serve
