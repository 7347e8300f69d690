// Starting the user's web browser on a URL (`anvilrt serve --open`), without waiting for it.
#pragma once

#include <absl/status/status.h>

#include <string>

namespace anvil::platform {

// Asks the desktop to open `url` (a web address, or the path of a local HTML file) in the user's browser
// (POSIX: xdg-open, its output left to the terminal); returns once the opener is started. The opener's
// command line is visible to every user of the machine (`ps`): `url` must hold no secret. An error (one
// line) when it cannot be started.
absl::Status open_browser(const std::string& url);

}  // namespace anvil::platform
