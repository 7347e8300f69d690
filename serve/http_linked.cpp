// serve/http_module.hpp where the HTTP server is linked in (serve/http_server.cpp in anvilrt_serve).
#include "serve/http_module.hpp"

extern "C" anvil::serve::HttpServer* anvilrt_make_http_server(anvil::serve::HttpSite& site,
                                                              const anvil::serve::HttpServerOptions& options);

namespace anvil::serve {

absl::StatusOr<MakeHttpServer> http_server_maker() { return &anvilrt_make_http_server; }

}  // namespace anvil::serve
