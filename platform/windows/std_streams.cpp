#include "platform/std_streams.hpp"

#include <fcntl.h>
#include <io.h>
#include <windows.h>

#include <cstdio>

namespace anvil::platform {

void prepare_standard_streams() {
  ::_setmode(::_fileno(stdin), _O_BINARY);
  ::_setmode(::_fileno(stdout), _O_BINARY);
  // stderr too: a message is one line ending in LF, as on POSIX (a console shows LF as a new line), and
  // what a script or a test reads of it is the same bytes on both systems.
  ::_setmode(::_fileno(stderr), _O_BINARY);
  ::SetConsoleOutputCP(CP_UTF8);
}

}  // namespace anvil::platform
