// A peer that hangs up is an error to handle, not a reason to die: a server writing an answer to a browser
// tab that closed meanwhile gets the write's error (EPIPE) instead of the process being killed (SIGPIPE).
#pragma once

namespace anvil::platform {

// From now on, for the whole process, a write to a closed pipe or socket fails instead of killing it.
void survive_broken_pipes();

}  // namespace anvil::platform
