// The seam between the editor (serve/server.cpp: the door, the routes, the API) and the HTTP server that
// carries its requests (serve/http_server.cpp, on cpp-httplib). Only standard types cross it: on Linux the
// HTTP server is a module that `serve` loads (serve/http_module.hpp), built apart from the rest of anvilrt.
#pragma once

#include <cstddef>
#include <string>
#include <utility>
#include <vector>

namespace anvil::serve {

using HttpHeaders = std::vector<std::pair<std::string, std::string>>;

// A request as the editor sees it.
struct HttpAsk {
  std::string method;
  std::string path;                                         // without the query
  std::vector<std::pair<std::string, std::string>> params;  // the query's, in order, decoded
  HttpHeaders headers;                                      // in order, names as sent
  std::string body;                                         // empty before routing (HttpSite::refuses)
};

struct HttpAnswer {
  int status = 200;
  std::string body;
  std::string content_type;
  HttpHeaders headers;  // besides HttpServerOptions::headers
};

// What the HTTP server asks of the editor, on its request threads (concurrently).
class HttpSite {
 public:
  // Before any route and before the body is read: the answer that refuses the request, or nothing.
  virtual bool refuses(const HttpAsk& ask, HttpAnswer& refusal) = 0;
  virtual HttpAnswer get(const HttpAsk& ask) = 0;   // GET and HEAD
  virtual HttpAnswer post(const HttpAsk& ask) = 0;  // the body read whole

 protected:
  ~HttpSite() = default;
};

struct HttpServerOptions {
  unsigned threads = 4;
  std::size_t max_body_bytes = 0;  // a longer body is answered 413 before it is read
  HttpHeaders headers;             // sent with every answer
};

class HttpServer {
 public:
  virtual ~HttpServer() = default;
  // Binds `host`:`port` (0: a free port); the port bound, or -1.
  virtual int bind(const std::string& host, int port) = 0;
  // Answers requests until stop().
  virtual void listen() = 0;
  virtual void stop() = 0;
};

// Makes the server for `site` (which must outlive it): serve/http_server.cpp's entry.
using MakeHttpServer = HttpServer* (*)(HttpSite& site, const HttpServerOptions& options);
inline constexpr const char* kMakeHttpServerSymbol = "anvilrt_make_http_server";

}  // namespace anvil::serve
