#include "pipeline/folder_archives.hpp"

#include <absl/strings/str_cat.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "pipeline/folder_transaction.hpp"
#include "platform/paths.hpp"

namespace anvil::folder {

absl::StatusOr<std::vector<std::string>> list_archives(const std::string& dir) {
  namespace fs = std::filesystem;
  const fs::path folder = platform::path_of(dir);
  std::error_code ec;
  if (!fs::is_directory(folder, ec))
    return absl::NotFoundError(absl::StrCat(dir, fs::exists(folder, ec) ? ": not a folder" : ": no such folder"));
  std::vector<std::string> archives;
  fs::directory_iterator it(folder, ec);
  if (ec) return absl::InternalError(absl::StrCat(dir, ": cannot list the folder: ", ec.message()));
  for (fs::directory_iterator end; it != end; it.increment(ec)) {
    if (ec) return absl::InternalError(absl::StrCat(dir, ": cannot list the folder: ", ec.message()));
    const std::string name = platform::utf8_of(it->path().filename());
    if (it->path().extension() == ".forge" && name.front() != '.' && it->is_regular_file(ec)) archives.push_back(name);
  }
  if (archives.empty())
    return absl::NotFoundError(
        absl::StrCat(dir, ": holds no .forge archive (a game folder's archives lie directly in it)"));
  std::sort(archives.begin(), archives.end());
  return archives;
}

absl::Status check_game_folder(const std::string& dir) {
  std::error_code ec;
  if (std::filesystem::is_directory(platform::path_of(dir) / platform::path_of(kStateFolder), ec))
    return absl::OkStatus();
  return list_archives(dir).status();
}

}  // namespace anvil::folder
