// serve/http_site.hpp's HTTP server on cpp-httplib. It uses the standard library and cpp-httplib only, so
// that it builds alone as the module `serve` loads on Linux (serve/CMakeLists.txt).
#include <httplib.h>

#include <memory>

#include "serve/http_site.hpp"

namespace anvil::serve {
namespace {

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

class HttplibServer final : public HttpServer {
 public:
  HttplibServer(HttpSite& site, const HttpServerOptions& options) {
    server_.new_task_queue = [threads = options.threads] { return new httplib::ThreadPool(threads); };
    server_.set_payload_max_length(options.max_body_bytes);
    server_.set_default_headers(httplib::Headers(options.headers.begin(), options.headers.end()));
    server_.set_pre_routing_handler([&site](const httplib::Request& req, httplib::Response& res) {
      HttpAnswer refusal;
      if (!site.refuses(ask_of(req), refusal)) return httplib::Server::HandlerResponse::Unhandled;
      give(refusal, res);
      return httplib::Server::HandlerResponse::Handled;
    });
    server_.Get(".*",
                [&site](const httplib::Request& req, httplib::Response& res) { give(site.get(ask_of(req)), res); });
    server_.Post(".*",
                 [&site](const httplib::Request& req, httplib::Response& res) { give(site.post(ask_of(req)), res); });
  }

  int bind(const std::string& host, int port) override {
    if (port == 0) return server_.bind_to_any_port(host.c_str());
    return server_.bind_to_port(host.c_str(), port) ? port : -1;
  }
  void listen() override { server_.listen_after_bind(); }
  void stop() override { server_.stop(); }

 private:
  httplib::Server server_;
};

}  // namespace
}  // namespace anvil::serve

// The module's one entry (serve/http_site.hpp, kMakeHttpServerSymbol).
extern "C" anvil::serve::HttpServer* anvilrt_make_http_server(anvil::serve::HttpSite& site,
                                                              const anvil::serve::HttpServerOptions& options) {
  return new anvil::serve::HttplibServer(site, options);
}
