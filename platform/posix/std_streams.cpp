#include "platform/std_streams.hpp"

namespace anvil::platform {

// POSIX streams carry bytes as they are, and a terminal shows the UTF-8 it is given.
void prepare_standard_streams() {}

}  // namespace anvil::platform
