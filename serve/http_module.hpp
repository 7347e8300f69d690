// Where `serve` finds its HTTP server (serve/http_site.hpp). serve/CMakeLists.txt builds one of two
// answers: on Linux the server is the module anvilrt-http.so beside the binary (http_loaded.cpp), so that
// cpp-httplib and the libraries Debian builds it with (OpenSSL, zlib, Brotli) are loaded by `serve`
// alone and no other command pays for them at its start; on Windows it is linked into the static
// anvilrt.exe (http_linked.cpp), which stays one file.
#pragma once

#include <absl/status/statusor.h>

#include "serve/http_site.hpp"

namespace anvil::serve {

// The function that makes the HTTP server; an error (one line) when its module cannot be loaded.
absl::StatusOr<MakeHttpServer> http_server_maker();

}  // namespace anvil::serve
