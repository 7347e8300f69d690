#include "pipeline/mods/package_members.hpp"

#include <absl/strings/ascii.h>
#include <absl/strings/escaping.h>
#include <absl/strings/str_format.h>

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "platform/paths.hpp"

namespace anvil::mods {

absl::Status member_refused(std::string_view package, std::string_view member, std::string_view reason) {
  return absl::InvalidArgumentError(absl::StrFormat("%s: member '%s': %s", std::string(package),
                                                    absl::CHexEscape(std::string(member)), std::string(reason)));
}

absl::StatusOr<std::string> member_path(std::string_view name) {
  std::string slashed(name);
  std::replace(slashed.begin(), slashed.end(), '\\', '/');
  if (!slashed.empty() && slashed.front() == '/') return absl::InvalidArgumentError("is an absolute path");
  if (slashed.size() >= 2 && slashed[1] == ':' && absl::ascii_isalpha(static_cast<unsigned char>(slashed[0])))
    return absl::InvalidArgumentError("is an absolute path (a drive)");
  std::string out;
  slashed.push_back('/');
  for (std::size_t begin = 0, slash; (slash = slashed.find('/', begin)) != std::string::npos; begin = slash + 1) {
    const std::string part = slashed.substr(begin, slash - begin);
    if (part.empty() || part == ".") continue;
    if (part == "..") return absl::InvalidArgumentError("leaves the package");
    if (!out.empty()) out.push_back('/');
    out += part;
  }
  if (out.empty()) return absl::InvalidArgumentError("has no name");
  return out;
}

namespace {

namespace fs = std::filesystem;

// One entry of a folder package: a regular file taken, a folder passed, anything else refused.
absl::Status take_folder_entry(const std::string& package, const fs::directory_entry& entry, const fs::path& root,
                               std::vector<PackageMember>& out) {
  const std::string disk = platform::utf8_of(entry.path());
  const std::u8string generic = entry.path().lexically_relative(root).generic_u8string();
  const std::string relative(generic.begin(), generic.end());
  if (platform::is_link(disk)) return member_refused(package, relative, "is a link");
  std::error_code ec;
  const fs::file_status status = entry.symlink_status(ec);
  if (ec) return member_refused(package, relative, ec.message());
  if (fs::is_directory(status)) return absl::OkStatus();
  if (!fs::is_regular_file(status)) return member_refused(package, relative, "is not a regular file");
  const std::uintmax_t size = entry.file_size(ec);
  if (ec) return member_refused(package, relative, ec.message());
  PackageMember member;
  member.relative = relative;
  member.disk_path = disk;
  member.size = size;
  out.push_back(std::move(member));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<std::vector<PackageMember>> folder_members(const std::string& path, const PackageLimits& limits) {
  const fs::path root = platform::path_of(path);
  std::vector<PackageMember> out;
  std::error_code ec;
  u64 entries = 0;
  // Links are not followed: one is refused where it is met (platform::is_link also sees Windows' junctions).
  for (fs::recursive_directory_iterator it(root, fs::directory_options::none, ec), end; !ec && it != end;
       it.increment(ec)) {
    if (++entries > limits.members)
      return absl::InvalidArgumentError(absl::StrFormat("%s: holds more than %d files", path, limits.members));
    if (auto s = take_folder_entry(path, *it, root, out); !s.ok()) return s;
  }
  if (ec) return absl::InvalidArgumentError(absl::StrFormat("%s: %s", path, ec.message()));
  std::sort(out.begin(), out.end(), [](const auto& a, const auto& b) { return a.relative < b.relative; });
  return out;
}

}  // namespace anvil::mods
