#include "platform/file_stream.hpp"

#include <fcntl.h>
#include <io.h>

#include <cerrno>
#include <string>

#include "platform/windows/system.hpp"

namespace anvil::platform {

namespace {

HANDLE handle_of(std::FILE* stream) { return reinterpret_cast<HANDLE>(::_get_osfhandle(::_fileno(stream))); }

}  // namespace

std::FILE* open_file(const std::string& path, const char* mode) {
  const std::string narrow_mode(mode);
  return ::_wfopen(windows::wide(path).c_str(), std::wstring(narrow_mode.begin(), narrow_mode.end()).c_str());
}

bool seek(std::FILE* stream, std::uint64_t offset) {
  return ::_fseeki64(stream, static_cast<__int64>(offset), SEEK_SET) == 0;
}

bool sync(std::FILE* stream) { return ::FlushFileBuffers(handle_of(stream)) != 0; }

void sync_data(std::FILE* stream) { (void)::FlushFileBuffers(handle_of(stream)); }

std::FILE* anonymous_file() {
  wchar_t folder[MAX_PATH + 1];
  const DWORD n = ::GetTempPathW(MAX_PATH + 1, folder);
  if (n == 0 || n > MAX_PATH) return nullptr;
  // A new name of our own in the temporary folder, gone when closed (and kept in memory while the cache
  // holds it: FILE_ATTRIBUTE_TEMPORARY).
  for (int attempt = 0; attempt < 100; ++attempt) {
    std::wstring path =
        windows::child(folder, L"anvilrt-output-" + std::to_wstring(::GetCurrentProcessId()) + L"-" +
                                   std::to_wstring(::GetTickCount64()) + L"-" + std::to_wstring(attempt));
    HANDLE h = ::CreateFileW(path.c_str(), GENERIC_READ | GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_DELETE, nullptr,
                             CREATE_NEW, FILE_ATTRIBUTE_TEMPORARY | FILE_FLAG_DELETE_ON_CLOSE, nullptr);
    if (h == INVALID_HANDLE_VALUE) {
      if (::GetLastError() == ERROR_FILE_EXISTS) continue;
      errno = EIO;
      return nullptr;
    }
    const int fd = ::_open_osfhandle(reinterpret_cast<intptr_t>(h), _O_RDWR | _O_BINARY);
    if (fd < 0) {
      ::CloseHandle(h);
      return nullptr;
    }
    std::FILE* file = ::_fdopen(fd, "w+b");
    if (file == nullptr) ::_close(fd);
    return file;
  }
  errno = EEXIST;
  return nullptr;
}

}  // namespace anvil::platform
