// The bounded output names of "Write a copy" (serve/output_name.hpp).
#include "serve/output_name.hpp"

#include <absl/strings/str_cat.h>

#include <filesystem>

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
  std::filesystem::path target = std::filesystem::path(folder) / std::string(name);
  std::error_code error;
  if (std::filesystem::equivalent(target, input_path, error) && !error)
    return absl::InvalidArgumentError("the copy cannot replace the input: the editor never writes it");
  std::filesystem::file_status status = std::filesystem::symlink_status(target, error);
  if (folder_copy && std::filesystem::exists(status)) {
    if (!std::filesystem::is_directory(status) || !std::filesystem::is_empty(target, error) || error)
      return absl::InvalidArgumentError(
          absl::StrCat(target.string(), " exists: a game folder's copy is written into a new folder or an empty one"));
    return target.string();
  }
  if (std::filesystem::exists(status)) {
    if (!std::filesystem::is_regular_file(status))
      return absl::InvalidArgumentError(absl::StrCat(target.string(), " exists and is not a regular file"));
    if (!replace_existing)
      return absl::AlreadyExistsError(absl::StrCat(target.string(), " exists: confirm to replace it"));
  }
  return target.string();
}

}  // namespace anvil::serve
