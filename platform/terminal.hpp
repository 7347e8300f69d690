// The terminal a progress bar draws on. Descriptors are the C runtime's (0, 1, 2 on both systems).
// POSIX: isatty, TIOCGWINSZ; Windows: the console's handle (_get_osfhandle), GetConsoleMode,
// GetConsoleScreenBufferInfo, and ENABLE_VIRTUAL_TERMINAL_PROCESSING for the escape sequences.
#pragma once

#include <cstddef>

namespace anvil::platform {

inline constexpr int kStandardInput = 0;
inline constexpr int kStandardOutput = 1;
inline constexpr int kStandardError = 2;

// Whether `fd` is a terminal (a console on Windows; a pipe or a file is not).
bool is_terminal(int fd);
// The terminal's width in columns; 80 when it does not say.
std::size_t terminal_width(int fd);
// Makes the terminal on `fd` act on the escape sequences a progress bar writes ("\r\033[K"): nothing to
// do on POSIX; Windows' console needs its virtual-terminal processing turned on (Windows 10 and later).
// False when the terminal cannot, and the bar is then not drawn.
bool enable_escape_sequences(int fd);

}  // namespace anvil::platform
