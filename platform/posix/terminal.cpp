#include "platform/terminal.hpp"

#include <sys/ioctl.h>
#include <unistd.h>

namespace anvil::platform {

bool is_terminal(int fd) { return ::isatty(fd) != 0; }

std::size_t terminal_width(int fd) {
  winsize ws{};
  if (::ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
  return 80;
}

bool enable_escape_sequences(int) { return true; }

}  // namespace anvil::platform
