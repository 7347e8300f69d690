// The process's environment variables, set for what it starts next (a test's child anvilrt reads
// ANVILRT_CRASH_AT_STEP): POSIX setenv/unsetenv; Windows _wputenv_s, which sets both the C runtime's copy
// (std::getenv) and the process's block that CreateProcessW hands on.
#pragma once

#include <string>

namespace anvil::platform {

// Sets `name` to `value` (UTF-8), replacing it; false when the system refuses.
bool set_environment(const std::string& name, const std::string& value);
// Removes `name` (nothing when it is not set).
void unset_environment(const std::string& name);

}  // namespace anvil::platform
