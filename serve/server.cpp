// The editor's HTTP server (serve/server.hpp): its door and routes as an HttpSite (serve/http_site.hpp),
// carried by the HTTP server of serve/http_module.hpp.
#include "serve/server.hpp"

#include <absl/strings/ascii.h>
#include <absl/strings/str_cat.h>

#include <algorithm>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <thread>

#include "platform/broken_pipe.hpp"
#include "platform/open_browser.hpp"
#include "platform/private_file.hpp"
#include "platform/stop_signals.hpp"
#include "serve/http_module.hpp"
#include "serve/object_index.hpp"
#include "serve/page_assets.hpp"
#include "serve/request_json.hpp"
#include "serve/security.hpp"

namespace anvil::serve {
namespace {

// Sent with every answer: the page may run only its own scripts and styles and talk only to this
// server; nothing is cached (an edited object must not come back stale); the token in the address
// never leaves as a Referer; no other site may frame the page.
HttpHeaders safety_headers() {
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

// The first value of the header `name` (compared without case), or nullptr.
const std::string* header(const HttpAsk& ask, std::string_view name) {
  for (const auto& [n, value] : ask.headers)
    if (std::ranges::equal(
            n, name, [](unsigned char a, unsigned char b) { return absl::ascii_tolower(a) == absl::ascii_tolower(b); }))
      return &value;
  return nullptr;
}

std::string header_value(const HttpAsk& ask, std::string_view name) {
  const std::string* value = header(ask, name);
  return value ? *value : std::string();
}

// Whether `ask` is a GET of one of the page's own files ("/" is its HTML), which need no token.
bool asks_page_file(const HttpAsk& ask) {
  if (ask.method != "GET" && ask.method != "HEAD") return false;
  const std::string_view path = ask.path == "/" ? "/index.html" : ask.path;
  return std::ranges::any_of(page_assets(), [path](const PageAsset& asset) { return asset.path == path; });
}

Knock knock_of(const HttpAsk& ask) {
  Knock k;
  k.host = header_value(ask, "Host");
  if (const std::string* origin = header(ask, "Origin")) k.origin = *origin;
  k.header_token = header_value(ask, "X-Anvilrt-Token");
  k.page_file = asks_page_file(ask);
  return k;
}

HttpAnswer answer_of(const Reply& reply) { return {reply.status, reply.body, reply.type, {}}; }

// The page's files answer only their exact names, and only names of these letters (no other path is
// looked up at all).
bool page_name(std::string_view path) {
  if (!path.starts_with('/')) return false;
  for (char c : path.substr(1))
    if (!absl::ascii_isalnum(static_cast<unsigned char>(c)) && c != '_' && c != '.' && c != '-') return false;
  return true;
}

// The door and the routes: the page's files and the API.
class EditorSite final : public HttpSite {
 public:
  EditorSite(const Door& door, Api& api) : door_(door), api_(api) {}

  bool refuses(const HttpAsk& ask, HttpAnswer& answer) override {
    std::optional<std::string> why = refusal(door_, knock_of(ask));
    if (!why) return false;
    answer = {403, *why + "\n", "text/plain; charset=utf-8", {}};
    return true;
  }

  HttpAnswer get(const HttpAsk& ask) override {
    if (ask.path == "/api/info") return answer_of(api_.info());
    if (ask.path == "/api/search") {
      std::map<std::string, std::string, std::less<>> params;
      for (const auto& [name, value] : ask.params) params.emplace(name, value);
      return answer_of(api_.search(params));
    }
    if (page_name(ask.path)) return page(ask.path == "/" ? "/index.html" : ask.path);
    return {404, {}, {}, {}};
  }

  HttpAnswer post(const HttpAsk& ask) override {
    static const std::map<std::string_view, Reply (Api::*)(std::string_view)> calls = {
        {"/api/object", &Api::object}, {"/api/check", &Api::check}, {"/api/save", &Api::save},
        {"/api/write", &Api::write},   {"/api/map", &Api::map},
    };
    auto call = calls.find(ask.path);
    if (call == calls.end()) return {404, {}, {}, {}};
    // Only JSON: a cross-site form cannot send it without a CORS preflight, which this server refuses.
    if (!header_value(ask, "Content-Type").starts_with("application/json"))
      return answer_of(error_reply(415, "the API takes application/json"));
    return answer_of((api_.*(call->second))(ask.body));
  }

 private:
  // The page: only the embedded files, by their exact names.
  HttpAnswer page(const std::string& path) const {
    for (const PageAsset& asset : page_assets()) {
      if (asset.path != path) continue;
      return {200,
              std::string(reinterpret_cast<const char*>(asset.bytes.data()), asset.bytes.size()),
              std::string(asset.content_type),
              {}};
    }
    return {404, "not found\n", "text/plain; charset=utf-8", {}};
  }

  const Door& door_;
  Api& api_;
};

// `--open`: the browser is started on a page that sends it on to `url`, in a file only this user can read
// (platform/private_file.hpp), as Jupyter does: the token never appears on the opener's command line,
// which `ps` shows every user of the machine. The file goes when the server stops.
absl::StatusOr<platform::PrivateFile> open_in_browser(const std::string& url) {
  const std::string html = absl::StrCat(
      "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><meta http-equiv=\"refresh\" content=\"0;url=", url,
      "\"><title>anvilrt serve</title></head>\n<body><p><a href=\"", url, "\">anvilrt serve</a></p></body></html>\n");
  absl::StatusOr<platform::PrivateFile> file = platform::PrivateFile::create("anvilrt-serve-", "open.html", html);
  if (!file.ok()) return file.status();
  if (absl::Status opened = platform::open_browser(file->path()); !opened.ok()) return opened;
  return file;
}

}  // namespace

absl::Status serve(const ServeInput& input, const ServeOptions& options,
                   const std::function<void(const std::string& url)>& on_url,
                   const std::function<void(const std::string& message)>& on_warning) {
  absl::StatusOr<MakeHttpServer> make_server = http_server_maker();
  if (!make_server.ok()) return make_server.status();
  // Before any thread starts: every thread then leaves Ctrl+C and SIGTERM to the wait below.
  platform::StopSignals stop_signals;
  platform::survive_broken_pipes();  // a tab closed while its answer is written
  Door door{new_token(), 0};
  Session session(input);
  if (!session.status().ok()) return session.status();
  ObjectIndex index;
  Api api(session, index, options);
  // The map's instances first (the page's main view, and the page's first request), then the index.
  std::thread indexer([&] {
    api.prepare_map();
    index.build(session);
  });

  EditorSite site(door, api);
  std::unique_ptr<HttpServer> server((*make_server)(site, {options.threads, kMaxBodyBytes, safety_headers()}));
  const char* host = "127.0.0.1";  // loopback only, never every interface
  const int port = server->bind(host, options.port);
  if (port <= 0) {
    index.stop();
    indexer.join();
    // The port is never shared (platform/server_socket.hpp): another program listening there is the
    // usual reason.
    return absl::UnavailableError(
        absl::StrCat("cannot listen on ", host, ":", options.port, " (another program may be listening there)"));
  }
  door.port = port;
  std::thread listener([&server] { server->listen(); });
  // The token in the fragment: the browser never sends it, so it is in no request line (the page takes
  // it from there, serve/security.hpp).
  const std::string url = absl::StrCat("http://", host, ":", port, "/#token=", door.token);
  on_url(url);
  std::optional<platform::PrivateFile> redirect;  // --open's page, removed as serve returns
  if (options.open_browser) {
    absl::StatusOr<platform::PrivateFile> opened = open_in_browser(url);
    if (opened.ok())
      redirect = std::move(*opened);
    else
      on_warning(std::string(opened.status().message()));
  }

  stop_signals.wait();
  index.stop();
  server->stop();
  listener.join();
  indexer.join();
  return absl::OkStatus();
}

}  // namespace anvil::serve
