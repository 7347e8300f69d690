// platform/environment.hpp on POSIX: setenv(3) and unsetenv(3).
#include "platform/environment.hpp"

#include <stdlib.h>

namespace anvil::platform {

bool set_environment(const std::string& name, const std::string& value) {
  return ::setenv(name.c_str(), value.c_str(), 1) == 0;
}

void unset_environment(const std::string& name) { ::unsetenv(name.c_str()); }

}  // namespace anvil::platform
