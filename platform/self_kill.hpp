// Killing this process at once, as a power cut would stop it: no handler runs, no buffer is flushed, no
// temporary is removed. Only the crash tests use it (pipeline/folder_transaction.cpp, ANVILRT_CRASH_AT_STEP).
#pragma once

namespace anvil::platform {

[[noreturn]] void kill_self();

}  // namespace anvil::platform
