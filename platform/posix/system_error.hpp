// An errno value as a status: the code absl gives it (ENOENT is NotFound, EEXIST AlreadyExists, ...)
// and the system's words for it as the message, which callers put after the name they report.
#pragma once

#include <absl/status/status.h>

#include <cstring>

namespace anvil::platform {

inline absl::Status errno_status(int error) { return absl::Status(absl::ErrnoToStatusCode(error), std::strerror(error)); }

}  // namespace anvil::platform
