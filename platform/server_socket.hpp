// The socket calls of `anvilrt serve`'s HTTP server that cpp-httplib leaves to its user
// (serve/http_guard.hpp): a listening port no other socket may share, a wait on one connection with a
// deadline, and the half-close that lets a refused client read its answer. Standard types only, no
// absl: on Linux the HTTP module (serve/CMakeLists.txt) compiles this job's file into itself.
#pragma once

#include <cstdint>

namespace anvil::platform {

// A socket as the system names it: a descriptor on POSIX, a SOCKET on Windows.
using SocketHandle = std::uintptr_t;

// Before bind: the port is this socket's alone. POSIX: SO_REUSEADDR (a restarted server may bind while
// its old connections close, but no second socket may listen there) and never SO_REUSEPORT (which would
// let another program of this user listen on the same port and take every other connection). Windows:
// SO_EXCLUSIVEADDRUSE (SO_REUSEADDR there would let any program bind over it).
void make_port_exclusive(SocketHandle listening);

enum class SocketWait { ready, timeout, failed };

// Waits up to `milliseconds` until `socket` can be read (or is closed by its peer) or, with
// `for_writing`, written.
SocketWait wait_socket(SocketHandle socket, bool for_writing, int milliseconds);

// Sends the peer the end of this side's data (its reads then end after the answer already sent); the
// socket can still be read.
void shutdown_writes(SocketHandle socket);

}  // namespace anvil::platform
