// A system's handle on an open file or folder, as the platform layer's interfaces pass it between their
// own implementations: a file descriptor on POSIX, a HANDLE on Windows. Code above platform/ never holds
// one: it holds the classes that own them.
#pragma once

#include <cstdint>

namespace anvil::platform {

using NativeHandle = std::intptr_t;
// No handle: -1 is both an invalid descriptor and Windows' INVALID_HANDLE_VALUE.
inline constexpr NativeHandle kNoHandle = -1;

}  // namespace anvil::platform
