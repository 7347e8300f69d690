// Which system this build is for, asked at run time by what must say so (a test skipped on Windows with
// its reason, `anvilrt version`): the choice itself is made once, by platform/CMakeLists.txt.
#pragma once

#include <string_view>

namespace anvil::platform {

enum class System { kPosix, kWindows };

System this_system();
// "POSIX" or "Windows", for a message.
std::string_view system_name();

}  // namespace anvil::platform
