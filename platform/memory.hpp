// What the system says of memory, and advice to it.
#pragma once

#include <cstddef>

namespace anvil::platform {

// This machine's physical memory in bytes; 0 when the system does not say.
std::size_t physical_memory();

// Advice that [p, p + size) (aligned to 2 MiB) be backed by huge pages: fewer page faults and TLB misses
// for a large buffer written once front to back. Only advice: nothing happens where the system has none
// (Windows' large pages need a privilege a modder's account does not hold).
void prefer_huge_pages(void* p, std::size_t size);

}  // namespace anvil::platform
