#include "platform/system.hpp"

namespace anvil::platform {

System this_system() { return System::kWindows; }

std::string_view system_name() { return "Windows"; }

}  // namespace anvil::platform
