#include "platform/std_streams.hpp"

#include <fcntl.h>
#include <io.h>
#include <windows.h>

#include <cstdio>

namespace anvil::platform {

void prepare_standard_streams() {
  ::_setmode(::_fileno(stdin), _O_BINARY);
  ::_setmode(::_fileno(stdout), _O_BINARY);
  ::SetConsoleOutputCP(CP_UTF8);
}

}  // namespace anvil::platform
