#include "platform/paths.hpp"

#include <sys/stat.h>

namespace anvil::platform {

std::vector<std::string> utf8_arguments(int argc, char** argv) { return std::vector<std::string>(argv, argv + argc); }

bool is_link(const std::string& utf8) {
  struct stat st {};
  return ::lstat(utf8.c_str(), &st) == 0 && S_ISLNK(st.st_mode);
}

}  // namespace anvil::platform
