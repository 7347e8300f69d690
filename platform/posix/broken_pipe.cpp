// platform/broken_pipe.hpp on POSIX: SIGPIPE ignored. cpp-httplib sends without MSG_NOSIGNAL; Debian's
// build also ignores SIGPIPE itself when it makes a socket, which a server must not rely on.
#include "platform/broken_pipe.hpp"

#include <signal.h>

namespace anvil::platform {

void survive_broken_pipes() { ::signal(SIGPIPE, SIG_IGN); }

}  // namespace anvil::platform
