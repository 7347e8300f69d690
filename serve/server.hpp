// `anvilrt serve`: the editor's HTTP server (docs/serve.md). Bound to 127.0.0.1 only, behind the door of
// serve/security.hpp, answering the embedded page (serve/page_assets.hpp) and the API (serve/api.hpp).
#pragma once

#include <absl/status/status.h>

#include <functional>
#include <string>

#include "serve/api.hpp"
#include "serve/session.hpp"

namespace anvil::serve {

// Serves `input` until Ctrl+C or SIGTERM; `on_url` hears, once the server listens, the URL to open
// (with its token). An error (one line) when it cannot listen. `--open` failing is only said, through
// `on_warning`.
absl::Status serve(const ServeInput& input, const ServeOptions& options,
                   const std::function<void(const std::string& url)>& on_url,
                   const std::function<void(const std::string& message)>& on_warning);

}  // namespace anvil::serve
