#include "platform/file_stream.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>

namespace anvil::platform {

std::FILE* open_file(const std::string& path, const char* mode) { return std::fopen(path.c_str(), mode); }

bool seek(std::FILE* stream, std::uint64_t offset) { return ::fseeko(stream, static_cast<off_t>(offset), SEEK_SET) == 0; }

bool sync(std::FILE* stream) { return ::fsync(::fileno(stream)) == 0; }

void sync_data(std::FILE* stream) { (void)::fdatasync(::fileno(stream)); }

std::FILE* anonymous_file() {
  int fd = ::memfd_create("anvilrt-output", MFD_CLOEXEC);
  if (fd < 0) return nullptr;
  std::FILE* file = ::fdopen(fd, "w+b");
  if (file == nullptr) {
    int error = errno;
    ::close(fd);
    errno = error;
  }
  return file;
}

}  // namespace anvil::platform
