// platform/self_kill.hpp on Windows: TerminateProcess on this process, which runs no handler and flushes
// nothing, as SIGKILL does on POSIX.
#include "platform/self_kill.hpp"

#include <windows.h>

namespace anvil::platform {

void kill_self() {
  // 137, the exit status a shell gives a process SIGKILL ended (128 + 9), which the crash tests expect.
  ::TerminateProcess(::GetCurrentProcess(), 137);
  for (;;) ::Sleep(INFINITE);  // TerminateProcess on this process does not return; never reached
}

}  // namespace anvil::platform
