// platform/server_socket.hpp on POSIX: setsockopt, poll and shutdown.
#include "platform/server_socket.hpp"

#include <poll.h>
#include <sys/socket.h>

#include <cerrno>

namespace anvil::platform {

void make_port_exclusive(SocketHandle listening) {
  int yes = 1;
  ::setsockopt(static_cast<int>(listening), SOL_SOCKET, SO_REUSEADDR, &yes, sizeof(yes));
}

SocketWait wait_socket(SocketHandle socket, bool for_writing, int milliseconds) {
  pollfd one{static_cast<int>(socket), static_cast<short>(for_writing ? POLLOUT : POLLIN), 0};
  int n;
  while ((n = ::poll(&one, 1, milliseconds)) < 0 && errno == EINTR) {
  }
  if (n < 0) return SocketWait::failed;
  return n == 0 ? SocketWait::timeout : SocketWait::ready;  // POLLHUP, POLLERR: the read or write says how
}

void shutdown_writes(SocketHandle socket) { ::shutdown(static_cast<int>(socket), SHUT_WR); }

}  // namespace anvil::platform
