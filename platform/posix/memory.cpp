#include "platform/memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

namespace anvil::platform {

std::size_t physical_memory() {
  const long pages = ::sysconf(_SC_PHYS_PAGES), page = ::sysconf(_SC_PAGESIZE);
  if (pages <= 0 || page <= 0) return 0;
  return static_cast<std::size_t>(pages) * static_cast<std::size_t>(page);
}

void prefer_huge_pages([[maybe_unused]] void* p, [[maybe_unused]] std::size_t size) {
#ifdef MADV_HUGEPAGE
  (void)::madvise(p, size, MADV_HUGEPAGE);
#endif
}

}  // namespace anvil::platform
