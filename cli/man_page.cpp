#include "cli/man_page.hpp"

#include <iostream>
#include <sstream>

#include "cli/commands.hpp"

namespace anvil::cli {
namespace {

// What one command prints for --help (on standard output, which is redirected for the call).
std::string help_of(const Command& command) {
  std::string name = command.name, help = "--help";
  char* argv[] = {name.data(), help.data(), nullptr};
  std::ostringstream captured;
  std::streambuf* saved = std::cout.rdbuf(captured.rdbuf());
  command.run(2, argv);
  std::cout.rdbuf(saved);
  return captured.str();
}

}  // namespace

std::string roff_text(std::string_view text) {
  while (!text.empty() && text.back() == '\n') text.remove_suffix(1);
  std::string out;
  bool line_start = true;
  for (char c : text) {
    // A line that starts with a dot or a quote would be a request.
    if (line_start && (c == '.' || c == '\'')) out += "\\&";
    line_start = c == '\n';
    if (c == '\\')
      out += "\\e";
    else if (c == '-')
      out += "\\-";  // a hyphen-minus, as typed on the command line
    else
      out += c;
  }
  return out + "\n";
}

std::string man_page_commands(std::string_view overview) {
  std::string out = ".nf\n" + roff_text(overview) + ".fi\n";
  for (const Command& c : commands())
    out += ".SS anvilrt " + std::string(c.name) + "\n.nf\n" + roff_text(help_of(c)) + ".fi\n";
  return out;
}

}  // namespace anvil::cli
