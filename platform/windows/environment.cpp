// platform/environment.hpp on Windows: _wputenv_s, which changes the C runtime's environment and, through
// SetEnvironmentVariableW, the process's (what a child started by CreateProcessW inherits); an empty value
// removes the variable.
#include "platform/environment.hpp"

#include <stdlib.h>

#include "platform/windows/system.hpp"

namespace anvil::platform {

bool set_environment(const std::string& name, const std::string& value) {
  return ::_wputenv_s(windows::wide(name).c_str(), windows::wide(value).c_str()) == 0;
}

void unset_environment(const std::string& name) { ::_wputenv_s(windows::wide(name).c_str(), L""); }

}  // namespace anvil::platform
