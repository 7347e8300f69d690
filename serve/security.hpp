// The editor's door (STYLE.md habit 19, as Jupyter's and VS Code's servers keep it): a local server is
// reachable by every page the user's browser opens and by every program on the machine, so each request
// must prove it comes from the page this server gave out.
//  * The token: 128 random bits in hex, given to the page in the URL's fragment (`#token=`, which the
//    browser never sends). The page keeps it in its tab's sessionStorage, which belongs to this origin
//    alone, and sends it as the header X-Anvilrt-Token with every API request; programs send the same
//    header. Never a cookie: a cookie for 127.0.0.1 goes to every port of 127.0.0.1, so any other local
//    server would receive it. Compared in constant time. The page's own files (its HTML, script and
//    style, embedded in the binary and the same for every input) are the one thing served without it,
//    since a <script src> cannot carry a header: they hold nothing of the input.
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
};

// What of a request the door looks at.
struct Knock {
  std::string host;
  std::optional<std::string> origin;
  std::string header_token;  // X-Anvilrt-Token, empty when absent
  bool page_file = false;    // a GET of one of the page's own files, which need no token
};

// Why the request is refused (the 403's one-line body), or nothing when it may pass.
std::optional<std::string> refusal(const Door& door, const Knock& knock);

// A new token: 16 bytes from the system's source of secrets (platform/random.hpp), in hex.
std::string new_token();

}  // namespace anvil::serve
