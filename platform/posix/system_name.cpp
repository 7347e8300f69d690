#include "platform/system.hpp"

namespace anvil::platform {

System this_system() { return System::kPosix; }

std::string_view system_name() { return "POSIX"; }

}  // namespace anvil::platform
