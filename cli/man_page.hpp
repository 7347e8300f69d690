// The man page's COMMANDS section, made from the very text `--help` prints (the build renders it into
// docs/anvilrt.1.in: cmake/man_page.cmake), so that the man page cannot fall behind the commands.
#pragma once

#include <string>
#include <string_view>

namespace anvil::cli {

// `overview` (what `anvilrt --help` prints), then one `.SS anvilrt NAME` per command with what
// `anvilrt help NAME` prints, each as no-fill roff text (backslashes, hyphens and leading dots escaped).
std::string man_page_commands(std::string_view overview);

// Text as roff shows it in no-fill mode, line for line.
std::string roff_text(std::string_view text);

}  // namespace anvil::cli
