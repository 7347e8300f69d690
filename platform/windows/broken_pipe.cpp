// platform/broken_pipe.hpp on Windows: nothing to do. Windows has no SIGPIPE: a send on a socket the peer
// closed fails with WSAECONNRESET or WSAECONNABORTED, a write to a closed pipe with ERROR_NO_DATA (EPIPE
// through the C runtime), and the process goes on either way.
#include "platform/broken_pipe.hpp"

namespace anvil::platform {

void survive_broken_pipes() {}

}  // namespace anvil::platform
