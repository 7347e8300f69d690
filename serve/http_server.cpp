// serve/http_site.hpp's HTTP server on cpp-httplib, its connections guarded by serve/http_guard.hpp. It
// uses the standard library and cpp-httplib only (and platform/server_socket.hpp, which is compiled in),
// so that it builds alone as the module `serve` loads on Linux (serve/CMakeLists.txt).
#include <httplib.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <semaphore>
#include <string>

#include "serve/http_guard.hpp"
#include "serve/http_site.hpp"

namespace anvil::serve {
namespace {

// Header fields a request may carry (cpp-httplib adds four of its own: REMOTE_ADDR, REMOTE_PORT, ...).
constexpr std::size_t kMaxHeaderFields = 100;
constexpr std::size_t kHeadersAdded = 4;

HttpAsk ask_of(const httplib::Request& req) {
  HttpAsk ask;
  ask.method = req.method;
  ask.path = req.path;
  for (const auto& [name, value] : req.params) ask.params.emplace_back(name, value);
  for (const auto& [name, value] : req.headers) ask.headers.emplace_back(name, value);
  ask.body = req.body;
  return ask;
}

void give(const HttpAnswer& answer, httplib::Response& res) {
  res.status = answer.status;
  for (const auto& [name, value] : answer.headers) res.set_header(name, value);
  if (!answer.body.empty() || !answer.content_type.empty()) res.set_content(answer.body, answer.content_type.c_str());
}

HttpAnswer plain(int status, const std::string& why) { return {status, why + "\n", "text/plain; charset=utf-8", {}}; }

// What a request's head says of its body, checked before the body is read: only a POST has one, its
// length stated once in Content-Length and at most `max_body`, as it is (no Transfer-Encoding, whose
// chunks would have no length to check first, no Content-Encoding, which would grow it after the
// check); and a bounded count of header fields. The refusal, or nothing.
std::optional<HttpAnswer> framing_refusal(const httplib::Request& req, std::size_t max_body) {
  if (req.headers.size() > kMaxHeaderFields + kHeadersAdded)
    return plain(431, "too many header fields (at most " + std::to_string(kMaxHeaderFields) + ")");
  if (req.has_header("Transfer-Encoding"))
    return plain(411, "a body is taken only with its Content-Length (no Transfer-Encoding)");
  if (req.has_header("Content-Encoding")) return plain(415, "a body is taken only as it is (no Content-Encoding)");
  const std::size_t lengths = req.get_header_value_count("Content-Length");
  if (lengths > 1) return plain(400, "more than one Content-Length");
  std::optional<std::uint64_t> length;
  if (lengths == 1) {
    const std::string text = req.get_header_value("Content-Length");
    if (text.empty() || text.size() > 18 || text.find_first_not_of("0123456789") != std::string::npos)
      return plain(400, "the Content-Length is not a number");
    length = std::stoull(text);
  }
  if (req.method == "POST") {
    if (!length) return plain(411, "a POST must state its Content-Length");
    if (*length > max_body) return plain(413, "the body is longer than " + std::to_string(max_body) + " bytes");
  } else if (length.value_or(0) != 0) {
    return plain(400, "only a POST carries a body");
  }
  return std::nullopt;
}

class HttplibServer final : public HttpServer {
 public:
  HttplibServer(HttpSite& site, const HttpServerOptions& options)
      : site_(site), max_body_(options.max_body_bytes), server_(GuardLimits{}), handling_(options.threads) {
    server_.set_payload_max_length(options.max_body_bytes);
    server_.set_default_headers(httplib::Headers(options.headers.begin(), options.headers.end()));
    // Before the body is read: refused here, a request is answered and its connection closed.
    server_.set_pre_routing_handler([this](const httplib::Request& req, httplib::Response& res) {
      return let_in(req, res) ? httplib::Server::HandlerResponse::Unhandled : httplib::Server::HandlerResponse::Handled;
    });
    // "Expect: 100-continue" is answered before routing: the same checks first, so that a refused client
    // is never told to send its body.
    server_.set_expect_100_continue_handler(
        [this](const httplib::Request& req, httplib::Response& res) { return let_in(req, res) ? 100 : res.status; });
    server_.Get(".*", [this](const httplib::Request& req, httplib::Response& res) {
      handle(res, [&] { return site_.get(ask_of(req)); });
    });
    server_.Post(".*", [this](const httplib::Request& req, httplib::Response& res) {
      handle(res, [&] { return site_.post(ask_of(req)); });
    });
  }

  int bind(const std::string& host, int port) override {
    if (port == 0) return server_.bind_to_any_port(host.c_str());
    return server_.bind_to_port(host.c_str(), port) ? port : -1;
  }
  void listen() override { server_.listen_after_bind(); }
  void stop() override { server_.stop_guarded(); }

 private:
  bool let_in(const httplib::Request& req, httplib::Response& res) {
    HttpAnswer refusal;
    if (std::optional<HttpAnswer> framing = framing_refusal(req, max_body_)) {
      refusal = *framing;
    } else if (!site_.refuses(ask_of(req), refusal)) {
      GuardedServer::admitted();
      return true;
    }
    give(refusal, res);
    res.set_header("Connection", "close");
    return false;
  }

  // A route's answer, at most `threads` at once.
  template <class Route>
  void handle(httplib::Response& res, const Route& route) {
    handling_.acquire();
    struct Release {
      std::counting_semaphore<>& s;
      ~Release() { s.release(); }
    } release{handling_};
    give(route(), res);
    GuardedServer::answered();
  }

  HttpSite& site_;
  std::size_t max_body_;
  GuardedServer server_;
  std::counting_semaphore<> handling_;
};

}  // namespace
}  // namespace anvil::serve

// The module's one entry (serve/http_site.hpp, kMakeHttpServerSymbol).
extern "C" anvil::serve::HttpServer* anvilrt_make_http_server(anvil::serve::HttpSite& site,
                                                              const anvil::serve::HttpServerOptions& options) {
  return new anvil::serve::HttplibServer(site, options);
}
