#include "platform/paths.hpp"

namespace anvil::platform {

std::vector<std::string> utf8_arguments(int argc, char** argv) { return std::vector<std::string>(argv, argv + argc); }

}  // namespace anvil::platform
