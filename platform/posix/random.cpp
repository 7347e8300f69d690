// platform/random.hpp on POSIX: getrandom(2), which blocks only until the kernel's pool is first seeded.
#include "platform/random.hpp"

#include <sys/random.h>

#include <cerrno>
#include <cstring>
#include <string>

namespace anvil::platform {

absl::StatusOr<std::vector<std::uint8_t>> secure_random_bytes(std::size_t count) {
  std::vector<std::uint8_t> bytes(count);
  std::size_t done = 0;
  while (done < count) {
    ssize_t got = ::getrandom(bytes.data() + done, count - done, 0);
    if (got < 0) {
      if (errno == EINTR) continue;
      return absl::InternalError(std::string("cannot read random bytes: ") + std::strerror(errno));
    }
    done += static_cast<std::size_t>(got);
  }
  return bytes;
}

}  // namespace anvil::platform
