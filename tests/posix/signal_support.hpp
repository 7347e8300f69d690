// Starting a command that a test then signals (tests/posix/output_safety_test.cpp,
// extract_safety_test.cpp): POSIX signals only.
#pragma once

#include <sys/types.h>

#include <string>
#include <vector>

namespace anvil::test {

// Starts `args` (args[0] the program) with its standard output on /dev/null and SIGINT, SIGTERM and
// SIGHUP at their defaults and unblocked, even under nohup, for the tests that signal a running
// command; the pid, or -1 when it cannot start. The caller waits for it.
pid_t spawn_with_default_signals(std::vector<std::string> args);
// Whether process `pid` blocks signal `sig` now (its SigBlk in /proc).
bool blocks_signal(pid_t pid, int sig);

}  // namespace anvil::test
