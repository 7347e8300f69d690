// platform/server_socket.hpp on Windows: Winsock's setsockopt, select and shutdown. winsock2.h before
// any windows.h (platform/CMakeLists.txt keeps this file out of the unity batches for that).
#include "platform/server_socket.hpp"

#include <winsock2.h>

namespace anvil::platform {

void make_port_exclusive(SocketHandle listening) {
  BOOL yes = TRUE;
  ::setsockopt(static_cast<SOCKET>(listening), SOL_SOCKET, SO_EXCLUSIVEADDRUSE, reinterpret_cast<const char*>(&yes),
               sizeof(yes));
}

SocketWait wait_socket(SocketHandle socket, bool for_writing, int milliseconds) {
  fd_set set;
  FD_ZERO(&set);
  FD_SET(static_cast<SOCKET>(socket), &set);
  timeval limit{milliseconds / 1000, (milliseconds % 1000) * 1000};
  // Windows' select ignores its first argument and takes any SOCKET value (FD_SETSIZE is a count).
  const int n = ::select(0, for_writing ? nullptr : &set, for_writing ? &set : nullptr, nullptr, &limit);
  if (n == SOCKET_ERROR) return SocketWait::failed;
  return n == 0 ? SocketWait::timeout : SocketWait::ready;
}

void shutdown_writes(SocketHandle socket) { ::shutdown(static_cast<SOCKET>(socket), SD_SEND); }

}  // namespace anvil::platform
