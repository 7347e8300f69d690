// The editor's door (STYLE.md habit 19, as Jupyter's and VS Code's servers keep it): a local server is
// reachable by every page the user's browser opens and by every program on the machine, so each request
// must prove it comes from the page this server gave out.
//  * The token: 128 random bits in hex, printed in the URL. The first page load carries it as
//    `?token=`; the answer sets it as a cookie (HttpOnly: no script reads it; SameSite=Strict: no other
//    site's page makes the browser send it; named after the port, so two editors do not overwrite each
//    other's), which the browser then sends with every script, style and API request -- including those a
//    header cannot be added to (the page's <script src>, a download). Programs may send it as the header
//    X-Anvilrt-Token instead. Compared in constant time.
//  * `Host` must be 127.0.0.1:PORT or localhost:PORT (a DNS-rebinding page has its own host name).
//  * A present `Origin` must be this server's (http://127.0.0.1:PORT or http://localhost:PORT).
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace anvil::serve {

struct Door {
  std::string token;  // hex
  int port = 0;

  // The cookie's name ("anvilrt_token_PORT").
  std::string cookie_name() const;
};

// What of a request the door looks at.
struct Knock {
  std::string host;
  std::optional<std::string> origin;
  std::string query_token;   // ?token=, empty when absent
  std::string header_token;  // X-Anvilrt-Token, empty when absent
  std::string cookies;       // the Cookie header, empty when absent
};

// Why the request is refused (the 403's one-line body), or nothing when it may pass.
std::optional<std::string> refusal(const Door& door, const Knock& knock);

// A new token: 16 bytes from the system's source of secrets (platform/random.hpp), in hex.
std::string new_token();

}  // namespace anvil::serve
