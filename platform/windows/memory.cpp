#include "platform/memory.hpp"

#include <windows.h>

namespace anvil::platform {

std::size_t physical_memory() {
  MEMORYSTATUSEX status{};
  status.dwLength = sizeof(status);
  if (!::GlobalMemoryStatusEx(&status)) return 0;
  return static_cast<std::size_t>(status.ullTotalPhys);
}

// Large pages on Windows need SeLockMemoryPrivilege and VirtualAlloc(MEM_LARGE_PAGES) from the start; an
// allocation already made cannot be advised into them.
void prefer_huge_pages(void*, std::size_t) {}

}  // namespace anvil::platform
