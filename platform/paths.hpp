// Paths are UTF-8 everywhere above this layer: arguments, messages, JSON. These convert at the edges.
// std::filesystem::path takes and gives UTF-8 through char8_t on both systems (on Windows it holds
// UTF-16, which the wide APIs take; a plain std::string there would be read in the ANSI code page).
#pragma once

#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

namespace anvil::platform {

// The path `utf8` names.
inline std::filesystem::path path_of(std::string_view utf8) {
  return std::filesystem::path(std::u8string_view(reinterpret_cast<const char8_t*>(utf8.data()), utf8.size()));
}

// `path` in UTF-8, for a message, JSON or another call of path_of().
inline std::string utf8_of(const std::filesystem::path& path) {
  const std::u8string text = path.u8string();
  return std::string(text.begin(), text.end());
}

// The command line's arguments in UTF-8: argv as given on POSIX (whatever bytes the names hold); on
// Windows the wide command line (GetCommandLineW, CommandLineToArgvW), since argv there is in the ANSI
// code page, which cannot spell most names.
std::vector<std::string> utf8_arguments(int argc, char** argv);

// Whether `utf8` names a link itself, not followed: a symbolic link on POSIX; on Windows any reparse point
// (a symbolic link, a junction), which std::filesystem::symlink_status does not see there (MinGW's
// libstdc++ follows it). False when nothing is there.
bool is_link(const std::string& utf8);

}  // namespace anvil::platform
