// The editor's HTTP server (serve/server.hpp), on cpp-httplib.
#include "serve/server.hpp"

#include <absl/strings/str_cat.h>
#include <httplib.h>

#include <atomic>
#include <thread>

#include "platform/broken_pipe.hpp"
#include "platform/open_browser.hpp"
#include "platform/stop_signals.hpp"
#include "serve/object_index.hpp"
#include "serve/page_assets.hpp"
#include "serve/request_json.hpp"
#include "serve/security.hpp"

namespace anvil::serve {
namespace {

// Sent with every answer: the page may run only its own scripts and styles and talk only to this
// server; nothing is cached (an edited object must not come back stale); the token in the address
// never leaves as a Referer; no other site may frame the page.
httplib::Headers safety_headers() {
  return {
      {"Content-Security-Policy",
       "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
       "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"},
      {"X-Content-Type-Options", "nosniff"},
      {"Cache-Control", "no-store"},
      {"Referrer-Policy", "no-referrer"},
      {"X-Frame-Options", "DENY"},
      {"Cross-Origin-Resource-Policy", "same-origin"},
  };
}

Knock knock_of(const httplib::Request& req) {
  Knock k;
  k.host = req.get_header_value("Host");
  if (req.has_header("Origin")) k.origin = req.get_header_value("Origin");
  if (req.has_param("token")) k.query_token = req.params.find("token")->second;
  k.header_token = req.get_header_value("X-Anvilrt-Token");
  k.cookies = req.get_header_value("Cookie");
  return k;
}

void answer(httplib::Response& res, const Reply& reply) {
  res.status = reply.status;
  res.set_content(reply.body, reply.type);
}

void routes(httplib::Server& server, Api& api, const Door& door) {
  server.Get("/api/info", [&api](const httplib::Request&, httplib::Response& res) { answer(res, api.info()); });
  server.Get("/api/search", [&api](const httplib::Request& req, httplib::Response& res) {
    std::map<std::string, std::string, std::less<>> params;
    for (const auto& [name, value] : req.params) params.emplace(name, value);
    answer(res, api.search(params));
  });
  auto post = [&server](const char* path, Reply (Api::*call)(std::string_view), Api& on) {
    server.Post(path, [&on, call](const httplib::Request& req, httplib::Response& res) {
      // Only JSON: a cross-site form cannot send it without a CORS preflight, which this server refuses.
      if (req.get_header_value("Content-Type").rfind("application/json", 0) != 0)
        return answer(res, error_reply(415, "the API takes application/json"));
      answer(res, (on.*call)(req.body));
    });
  };
  post("/api/object", &Api::object, api);
  post("/api/check", &Api::check, api);
  post("/api/save", &Api::save, api);
  post("/api/write", &Api::write, api);
  post("/api/map", &Api::map, api);
  // The page: only the embedded files, by their exact names.
  server.Get(R"(/[A-Za-z0-9_.-]*)", [&door](const httplib::Request& req, httplib::Response& res) {
    std::string path = req.path == "/" ? "/index.html" : req.path;
    for (const PageAsset& asset : page_assets()) {
      if (asset.path != path) continue;
      res.set_content(reinterpret_cast<const char*>(asset.bytes.data()), asset.bytes.size(),
                      std::string(asset.content_type).c_str());
      if (path == "/index.html")
        res.set_header("Set-Cookie",
                       absl::StrCat(door.cookie_name(), "=", door.token, "; Path=/; HttpOnly; SameSite=Strict"));
      return;
    }
    res.status = 404;
    res.set_content("not found\n", "text/plain; charset=utf-8");
  });
}

}  // namespace

absl::Status serve(const ServeInput& input, const ServeOptions& options,
                   const std::function<void(const std::string& url)>& on_url,
                   const std::function<void(const std::string& message)>& on_warning) {
  // Before any thread starts: every thread then leaves Ctrl+C and SIGTERM to the wait below.
  platform::StopSignals stop_signals;
  platform::survive_broken_pipes();  // a tab closed while its answer is written
  Door door{new_token(), 0};
  Session session(input);
  if (!session.status().ok()) return session.status();
  ObjectIndex index;
  std::thread indexer([&] { index.build(session); });

  httplib::Server server;
  server.new_task_queue = [threads = options.threads] { return new httplib::ThreadPool(threads); };
  server.set_payload_max_length(kMaxBodyBytes);
  server.set_default_headers(safety_headers());
  server.set_pre_routing_handler([&door](const httplib::Request& req, httplib::Response& res) {
    if (auto why = refusal(door, knock_of(req))) {
      res.status = 403;
      res.set_content(*why + "\n", "text/plain; charset=utf-8");
      return httplib::Server::HandlerResponse::Handled;
    }
    return httplib::Server::HandlerResponse::Unhandled;
  });
  Api api(session, index, options);
  routes(server, api, door);

  const char* host = "127.0.0.1";  // loopback only, never every interface
  int port = options.port;
  bool bound = port == 0 ? (port = server.bind_to_any_port(host)) > 0 : server.bind_to_port(host, port);
  if (!bound) {
    index.stop();
    indexer.join();
    return absl::UnavailableError(absl::StrCat("cannot listen on ", host, ":", options.port));
  }
  door.port = port;
  std::thread listener([&server] { server.listen_after_bind(); });
  const std::string url = absl::StrCat("http://", host, ":", port, "/?token=", door.token);
  on_url(url);
  if (options.open_browser)
    if (auto s = platform::open_browser(url); !s.ok()) on_warning(std::string(s.message()));

  stop_signals.wait();
  index.stop();
  server.stop();
  listener.join();
  indexer.join();
  return absl::OkStatus();
}

}  // namespace anvil::serve
