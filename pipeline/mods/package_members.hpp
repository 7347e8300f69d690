// Internal to pipeline/mods: the files of a mod package (mod_package.hpp), listed with the checks that keep a
// hostile package harmless: a path that is absolute or has a '..' component, a link, anything but a regular
// file or a folder, an encrypted member, one path twice, more members or bytes than the limits, a member
// whose bytes are more than its stated size. Each is refused in one line naming the package and the member.
// Nothing is written anywhere.
#pragma once

#include <absl/status/statusor.h>

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "model/primitives.hpp"
#include "pipeline/mods/mod_package.hpp"

namespace anvil::mods {

struct PackageMember {
  std::string relative;   // '/'-separated, as in the package (no '.', '..' or empty component)
  std::string disk_path;  // a folder's file (UTF-8); empty for a member of a .zip/.7z
  std::vector<u8> bytes;  // a .zip/.7z member's bytes, when `wanted` took it
  u64 size = 0;
};

// Whether a member's bytes are to be read (the others are only checked, never held).
using MemberWanted = std::function<bool(const std::string& relative)>;

// The files below the folder `path`, sorted by relative path; their bytes stay on disk.
absl::StatusOr<std::vector<PackageMember>> folder_members(const std::string& path, const PackageLimits& limits);

// The file members of the .zip or .7z `path`, sorted by relative path; the wanted ones with their bytes.
absl::StatusOr<std::vector<PackageMember>> archive_members(const std::string& path, const PackageLimits& limits,
                                                           const MemberWanted& wanted);

// Whether the bytes of the file `path` are a zip or a 7z archive (libarchive's detection).
bool is_zip_or_7z(const std::string& path);

// A member's name made '/'-separated and checked: the path, or the reason it is refused ("leaves the
// package"). Backslashes count as separators (Windows' tools write them); '.' and empty components drop.
absl::StatusOr<std::string> member_path(std::string_view name);

// "PATH: member 'NAME': REASON", NAME escaped so that the line stays one line.
absl::Status member_refused(std::string_view package, std::string_view member, std::string_view reason);

}  // namespace anvil::mods
