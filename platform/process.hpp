// Running another program and waiting for it: the tests run the built executable this way
// (tests/test_support.hpp), with no shell between (no quoting rules of a shell to get wrong).
// POSIX: posix_spawn, waitpid; Windows: CreateProcessW with a command line quoted as
// CommandLineToArgvW reads it back, WaitForSingleObject, GetExitCodeProcess.
#pragma once

#include <string>
#include <vector>

namespace anvil::platform {

// Runs `args` (args[0] the program's path, all UTF-8) with its standard input on the null device and its
// standard output and error written to the files `out` and `err` (created or truncated), and waits for
// it. The exit code; 128 + N when a POSIX signal N ended it; -1 when it could not start.
int run_program(const std::vector<std::string>& args, const std::string& out, const std::string& err);

// This process's id (for names that must not clash with another process's).
long process_id();

}  // namespace anvil::platform
