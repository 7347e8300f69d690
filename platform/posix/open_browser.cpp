// platform/open_browser.hpp on POSIX: xdg-open started with posix_spawnp (no shell: the URL is one
// argument, never parsed), reaped by a detached thread so that no zombie stays.
#include "platform/open_browser.hpp"

#include <spawn.h>
#include <sys/wait.h>

#include <cerrno>
#include <cstring>
#include <thread>

extern char** environ;

namespace anvil::platform {

absl::Status open_browser(const std::string& url) {
  std::string program = "xdg-open";
  std::string argument = url;
  char* argv[] = {program.data(), argument.data(), nullptr};
  pid_t pid = 0;
  int error = ::posix_spawnp(&pid, program.c_str(), nullptr, nullptr, argv, environ);
  if (error != 0) return absl::UnavailableError("cannot start xdg-open: " + std::string(std::strerror(error)));
  std::thread([pid] {
    int status = 0;
    while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
    }
  }).detach();
  return absl::OkStatus();
}

}  // namespace anvil::platform
