#include "platform/terminal.hpp"

#include <io.h>
#include <windows.h>

namespace anvil::platform {

namespace {

HANDLE console_of(int fd) { return reinterpret_cast<HANDLE>(::_get_osfhandle(fd)); }

}  // namespace

// A console answers GetConsoleMode; _isatty alone also says yes for NUL and other character devices.
bool is_terminal(int fd) {
  DWORD mode = 0;
  return ::_isatty(fd) != 0 && ::GetConsoleMode(console_of(fd), &mode) != 0;
}

std::size_t terminal_width(int fd) {
  CONSOLE_SCREEN_BUFFER_INFO info{};
  if (::GetConsoleScreenBufferInfo(console_of(fd), &info) && info.srWindow.Right >= info.srWindow.Left)
    return static_cast<std::size_t>(info.srWindow.Right - info.srWindow.Left + 1);
  return 80;
}

bool enable_escape_sequences(int fd) {
  HANDLE console = console_of(fd);
  DWORD mode = 0;
  if (!::GetConsoleMode(console, &mode)) return false;
  if (mode & ENABLE_VIRTUAL_TERMINAL_PROCESSING) return true;
  return ::SetConsoleMode(console, mode | ENABLE_VIRTUAL_TERMINAL_PROCESSING) != 0;
}

}  // namespace anvil::platform
