// How the HTTP server (serve/http_server.cpp) keeps a client from starving it (docs/serve.md, the threat
// model). cpp-httplib 0.11 (Debian 12's) ties a pool thread to a connection for as long as it stays
// open, and its read timeout is per read: a client that sends a header byte every few seconds holds a
// thread indefinitely, four such clients stopped the server answering, and a stop then waited for them.
// So here each connection runs on a thread of its own (ConnectionThreads), read through a stream that
// bounds a request's head (its line and headers) in bytes and in time, and its body in time; the
// connections that wait for a request's head (none of theirs has passed the door yet) are capped, the
// one waiting longest closed when a new one would pass the cap; and a stopping server closes those
// at once while it answers the requests it has let in. Standard library and cpp-httplib only: this is
// part of the module serve loads (serve/http_module.hpp).
#pragma once

#include <httplib.h>

#include <atomic>
#include <cstddef>
#include <list>
#include <mutex>

namespace anvil::serve {

struct GuardLimits {
  std::size_t head_bytes = 32 << 10;  // a request's line and headers, at most
  int idle_ms = 5000;                 // the wait for a request to begin (and between two of a connection)
  int head_ms = 10000;                // from its first byte to the end of its headers
  int body_ms = 30000;                // then to the end of its body
  int io_ms = 5000;                   // one read or write waits at most this long
  std::size_t waiting = 32;           // connections waiting for a request's head, at most
  std::size_t connections = 256;      // connections, at most (more are closed at once)
  int requests = 100;                 // requests per connection
};

class GuardedConnection;

// The connections open, and which of them wait for a request's head, longest first.
class ConnectionRegistry {
 public:
  explicit ConnectionRegistry(const GuardLimits& limits) : limits_(limits) {}
  // Counts a new connection in; false when there are too many or the server stops (it is then closed).
  bool enter(GuardedConnection& connection);
  // The connection waits for a request's head (last in line); the first in line is closed when the line
  // grows past the cap.
  void waits(GuardedConnection& connection);
  // Its request has passed the door: out of the line.
  void admitted(GuardedConnection& connection);
  void leave(GuardedConnection& connection);
  void stop() { stopping_ = true; }
  bool stopping() const { return stopping_; }

 private:
  void out_of_line(GuardedConnection& connection);
  const GuardLimits& limits_;
  std::mutex lock_;
  std::list<GuardedConnection*> line_;
  std::size_t open_ = 0;
  std::atomic<bool> stopping_{false};
};

// cpp-httplib's server with its connections run as above.
class GuardedServer final : public httplib::Server {
 public:
  explicit GuardedServer(const GuardLimits& limits);
  // Closes the connections waiting for a request's head (within a tenth of a second), lets the requests
  // already in be answered, and stops listening; listen_after_bind() returns once they are.
  void stop_guarded();
  // Said by the routes, on the request's thread: its request passed the door (its connection is no
  // longer closed to make room) / was answered by a route, its body read whole (the connection may carry
  // another request; any other answer closes it, so that no unread body is read as a request).
  static void admitted();
  static void answered();

 private:
  bool process_and_close_socket(socket_t sock) override;
  GuardLimits limits_;
  ConnectionRegistry registry_;
};

}  // namespace anvil::serve
