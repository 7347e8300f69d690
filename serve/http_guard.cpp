// The guarded connections of the HTTP server (serve/http_guard.hpp).
#include "serve/http_guard.hpp"

#include <algorithm>
#include <chrono>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <system_error>
#include <thread>
#include <utility>
#include <vector>

#include "platform/server_socket.hpp"

namespace anvil::serve {

using GuardClock = std::chrono::steady_clock;

// One connection's standing: in the waiting line or not, and closed to make room.
class GuardedConnection {
 public:
  explicit GuardedConnection(ConnectionRegistry& registry) : registry(registry) {}
  ConnectionRegistry& registry;
  std::atomic<bool> pushed_out{false};  // closed to make room for a newer one
  bool in_line = false;
  std::list<GuardedConnection*>::iterator place;
  bool answered = false;  // the current request was answered by a route
};

bool ConnectionRegistry::enter(GuardedConnection&) {
  std::lock_guard hold(lock_);
  if (stopping_ || open_ >= limits_.connections) return false;
  ++open_;
  return true;
}

void ConnectionRegistry::waits(GuardedConnection& connection) {
  std::lock_guard hold(lock_);
  out_of_line(connection);
  connection.place = line_.insert(line_.end(), &connection);
  connection.in_line = true;
  if (line_.size() > limits_.waiting) {
    GuardedConnection* first = line_.front();
    first->pushed_out = true;
    out_of_line(*first);
  }
}

void ConnectionRegistry::admitted(GuardedConnection& connection) {
  std::lock_guard hold(lock_);
  out_of_line(connection);
}

void ConnectionRegistry::leave(GuardedConnection& connection) {
  std::lock_guard hold(lock_);
  out_of_line(connection);
  --open_;
}

void ConnectionRegistry::out_of_line(GuardedConnection& connection) {
  if (!connection.in_line) return;
  line_.erase(connection.place);
  connection.in_line = false;
}

namespace {

// A stop or a push is seen within this long by a connection that waits.
constexpr int kSliceMs = 100;
// A refused client's unread body (which is never parsed) is read and dropped for up to this long and
// this much after the answer, so that the close does not reset the connection before the client reads
// the answer.
constexpr int kLingerMs = 1000;
constexpr std::size_t kLingerBytes = 8 << 20;

thread_local GuardedConnection* current_connection = nullptr;

platform::SocketHandle handle_of(socket_t sock) { return static_cast<platform::SocketHandle>(sock); }

int ms_until(GuardClock::time_point when) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(when - GuardClock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 1 << 30));
}

// A connection's socket as cpp-httplib's routes read and write it, with the limits of GuardLimits.
class GuardedStream final : public httplib::Stream {
 public:
  GuardedStream(socket_t sock, const GuardLimits& limits, GuardedConnection& connection)
      : sock_(sock), limits_(limits), connection_(connection) {}

  // Waits for the next request's first byte; false when none comes in time, the connection is pushed
  // out, or the server stops.
  bool next_request() {
    phase_ = Phase::idle;
    if (start_ == end_ && !wait_readable(GuardClock::now() + std::chrono::milliseconds(limits_.idle_ms))) return false;
    phase_ = Phase::head;
    head_taken_ = 0;
    deadline_ = GuardClock::now() + std::chrono::milliseconds(limits_.head_ms);
    return true;
  }
  // The request's head is read: its body may follow.
  void head_read() {
    phase_ = Phase::body;
    deadline_ = GuardClock::now() + std::chrono::milliseconds(limits_.body_ms);
  }
  bool peer_closed() const { return peer_closed_; }

  bool is_readable() const override { return start_ != end_ || wait_readable(read_limit()); }
  bool is_writable() const override {
    return platform::wait_socket(handle_of(sock_), true, limits_.io_ms) == platform::SocketWait::ready;
  }

  ssize_t read(char* out, size_t size) override {
    if (phase_ == Phase::head && head_taken_ >= limits_.head_bytes) return -1;  // a head too long
    if (start_ == end_) {
      if (!wait_readable(read_limit())) return -1;
      const ssize_t n = httplib::detail::read_socket(sock_, buffer_, sizeof(buffer_), 0);
      if (n <= 0) {
        peer_closed_ = n == 0;
        return -1;
      }
      start_ = 0;
      end_ = static_cast<std::size_t>(n);
    }
    std::size_t take = std::min(size, end_ - start_);
    if (phase_ == Phase::head) {
      take = std::min(take, limits_.head_bytes - head_taken_);
      head_taken_ += take;
    }
    std::memcpy(out, buffer_ + start_, take);
    start_ += take;
    return static_cast<ssize_t>(take);
  }

  ssize_t write(const char* data, size_t size) override {
    if (!is_writable()) return -1;
    return httplib::detail::send_socket(sock_, data, size, 0);
  }

  // Nothing reads them (the server listens on loopback alone).
  void get_remote_ip_and_port(std::string& ip, int& port) const override {
    ip.clear();
    port = 0;
  }
  void get_local_ip_and_port(std::string& ip, int& port) const override {
    ip.clear();
    port = 0;
  }
  socket_t socket() const override { return sock_; }

 private:
  enum class Phase { idle, head, body };

  GuardClock::time_point read_limit() const {
    return std::min(deadline_, GuardClock::now() + std::chrono::milliseconds(limits_.io_ms));
  }

  // Waits until the socket can be read, a slice at a time: false at `until`, when the connection is
  // pushed out, or, unless a body is being read (its request was let in), when the server stops.
  bool wait_readable(GuardClock::time_point until) const {
    for (;;) {
      const int left = ms_until(until);
      const auto got = platform::wait_socket(handle_of(sock_), false, std::min(left, kSliceMs));
      if (got == platform::SocketWait::ready) return true;
      if (got == platform::SocketWait::failed || connection_.pushed_out) return false;
      if (phase_ != Phase::body && connection_.registry.stopping()) return false;
      if (left <= kSliceMs) return false;
    }
  }

  socket_t sock_;
  const GuardLimits& limits_;
  GuardedConnection& connection_;
  Phase phase_ = Phase::idle;
  GuardClock::time_point deadline_{};
  std::size_t head_taken_ = 0;
  bool peer_closed_ = false;
  char buffer_[4096];
  std::size_t start_ = 0, end_ = 0;
};

// After an answer that closes the connection: this side's end sent, then what the client still sends
// read and dropped until it closes too (or kLingerMs, kLingerBytes).
void linger(socket_t sock) {
  platform::shutdown_writes(handle_of(sock));
  const auto until = GuardClock::now() + std::chrono::milliseconds(kLingerMs);
  char sink[4096];
  for (std::size_t dropped = 0; dropped < kLingerBytes;) {
    if (platform::wait_socket(handle_of(sock), false, ms_until(until)) != platform::SocketWait::ready) return;
    const ssize_t n = httplib::detail::read_socket(sock, sink, sizeof(sink), 0);
    if (n <= 0) return;
    dropped += static_cast<std::size_t>(n);
  }
}

// httplib's task queue as a thread for each connection: a waiting connection costs a thread that sleeps,
// never one that another connection's request needs.
class ConnectionThreads final : public httplib::TaskQueue {
 public:
  void enqueue(std::function<void()> fn) override {
    auto task = std::make_shared<std::function<void()>>(std::move(fn));
    std::unique_lock hold(lock_);
    for (auto done : finished_) {
      done->join();
      threads_.erase(done);
    }
    finished_.clear();
    auto place = threads_.emplace(threads_.end());
    try {
      *place = std::thread([this, place, task] {
        (*task)();
        std::lock_guard done(lock_);
        finished_.push_back(place);
      });
    } catch (const std::system_error&) {  // no thread to be had: the connection is served here
      threads_.erase(place);
      hold.unlock();
      (*task)();
    }
  }

  void shutdown() override {
    std::list<std::thread> all;
    {
      std::lock_guard hold(lock_);
      all = std::move(threads_);
    }
    for (std::thread& t : all) t.join();
    std::lock_guard hold(lock_);
    finished_.clear();
  }

 private:
  std::mutex lock_;
  std::list<std::thread> threads_;
  std::vector<std::list<std::thread>::iterator> finished_;
};

}  // namespace

GuardedServer::GuardedServer(const GuardLimits& limits) : limits_(limits), registry_(limits_) {
  new_task_queue = [] { return new ConnectionThreads; };
  set_read_timeout(std::chrono::milliseconds(limits_.io_ms));
  set_write_timeout(std::chrono::milliseconds(limits_.io_ms));
  set_keep_alive_timeout(limits_.idle_ms / 1000);
  set_keep_alive_max_count(static_cast<std::size_t>(limits_.requests));
  set_socket_options([](socket_t sock) { platform::make_port_exclusive(handle_of(sock)); });
}

void GuardedServer::stop_guarded() {
  registry_.stop();
  stop();
}

void GuardedServer::admitted() {
  if (current_connection != nullptr) current_connection->registry.admitted(*current_connection);
}

void GuardedServer::answered() {
  if (current_connection != nullptr) current_connection->answered = true;
}

bool GuardedServer::process_and_close_socket(socket_t sock) {
  GuardedConnection connection(registry_);
  if (registry_.enter(connection)) {
    GuardedStream stream(sock, limits_, connection);
    current_connection = &connection;
    bool answer_written = false;
    for (int served = 0; served < limits_.requests; ++served) {
      registry_.waits(connection);
      if (!stream.next_request()) break;
      connection.answered = false;
      bool closed = false;
      const bool last = served + 1 == limits_.requests || registry_.stopping();
      const bool ok = process_request(stream, last, closed, [&stream](httplib::Request&) { stream.head_read(); });
      answer_written = true;
      if (!ok || closed || last || !connection.answered || stream.peer_closed()) break;
      answer_written = false;
    }
    current_connection = nullptr;
    registry_.leave(connection);
    if (answer_written && !stream.peer_closed()) linger(sock);
  }
  httplib::detail::close_socket(sock);
  return true;
}

}  // namespace anvil::serve
