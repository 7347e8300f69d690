#include "platform/mapped_file.hpp"

#include <io.h>

#include <algorithm>
#include <utility>

#include "platform/windows/system.hpp"

namespace anvil::platform {

using windows::as_handle;
using windows::last_error_status;

namespace {

// What the open `h` is: a folder, a regular file (with its size), or a stream (console, pipe, device).
absl::Status describe(HANDLE h, ReadableFile::Kind& kind, std::uint64_t& size) {
  if (::GetFileType(h) != FILE_TYPE_DISK) {
    kind = ReadableFile::Kind::kStream;
    return absl::OkStatus();
  }
  BY_HANDLE_FILE_INFORMATION info{};
  if (!::GetFileInformationByHandle(h, &info)) return last_error_status();
  const bool folder = (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) != 0;
  kind = folder ? ReadableFile::Kind::kFolder : ReadableFile::Kind::kRegular;
  size = folder ? 0 : (std::uint64_t{info.nFileSizeHigh} << 32) | info.nFileSizeLow;
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<ReadableFile> ReadableFile::open(const std::string& path) {
  // Shared for everything: another program (the game) may hold the file open, even for writing, and a
  // folder opens too (FILE_FLAG_BACKUP_SEMANTICS) so that it is refused as a folder, not as "access denied".
  HANDLE h =
      ::CreateFileW(windows::wide(path).c_str(), GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE,
                    nullptr, OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL | FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (h == INVALID_HANDLE_VALUE) return last_error_status();
  ReadableFile file(reinterpret_cast<NativeHandle>(h), true);
  if (auto s = describe(h, file.kind_, file.size_); !s.ok()) return s;
  return file;
}

ReadableFile ReadableFile::standard_input() {
  ReadableFile file(reinterpret_cast<NativeHandle>(::GetStdHandle(STD_INPUT_HANDLE)), false);
  file.kind_ = Kind::kStream;
  return file;
}

absl::StatusOr<ReadableFile> ReadableFile::reopen(std::FILE* stream) {
  HANDLE writing = reinterpret_cast<HANDLE>(::_get_osfhandle(::_fileno(stream)));
  HANDLE h = ::ReOpenFile(writing, GENERIC_READ, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, 0);
  if (h == INVALID_HANDLE_VALUE) return last_error_status();
  ReadableFile file(reinterpret_cast<NativeHandle>(h), true);
  if (auto s = describe(h, file.kind_, file.size_); !s.ok()) return s;
  return file;
}

void ReadableFile::close() {
  if (owned_ && handle_ != kNoHandle) ::CloseHandle(as_handle(handle_));
  handle_ = kNoHandle;
}

absl::StatusOr<std::size_t> ReadableFile::read(std::span<std::uint8_t> into) {
  DWORD n = 0;
  const auto ask = static_cast<DWORD>(std::min<std::size_t>(into.size(), std::size_t{1} << 30));
  if (::ReadFile(as_handle(handle_), into.data(), ask, &n, nullptr)) return std::size_t{n};
  const DWORD error = ::GetLastError();
  if (error == ERROR_BROKEN_PIPE || error == ERROR_HANDLE_EOF) return std::size_t{0};  // the writer is done
  return windows::error_status(error);
}

absl::StatusOr<std::size_t> ReadableFile::read_at(std::uint64_t offset, std::span<std::uint8_t> into) const {
  std::size_t done = 0;
  while (done < into.size()) {
    OVERLAPPED at{};
    const std::uint64_t where = offset + done;
    at.Offset = static_cast<DWORD>(where);
    at.OffsetHigh = static_cast<DWORD>(where >> 32);
    DWORD n = 0;
    const auto ask = static_cast<DWORD>(std::min<std::size_t>(into.size() - done, std::size_t{1} << 30));
    if (!::ReadFile(as_handle(handle_), into.data() + done, ask, &n, &at)) {
      if (::GetLastError() == ERROR_HANDLE_EOF) break;
      return last_error_status();
    }
    if (n == 0) break;
    done += n;
  }
  return done;
}

// Windows has no call that copies between two open files inside the kernel without a path; the caller
// writes the bytes itself.
bool ReadableFile::copy_to(std::FILE*, std::uint64_t) const { return false; }

void ReadableFile::forget_cached() const {}

absl::StatusOr<Mapping> Mapping::map(const ReadableFile& file) {
  Mapping out;
  if (file.size() == 0) return out;
  HANDLE section = ::CreateFileMappingW(as_handle(file.handle()), nullptr, PAGE_READONLY, 0, 0, nullptr);
  if (section == nullptr) return last_error_status();
  void* p = ::MapViewOfFile(section, FILE_MAP_READ, 0, 0, 0);
  if (p == nullptr) {
    absl::Status s = last_error_status();
    ::CloseHandle(section);
    return s;
  }
  out.section_ = reinterpret_cast<NativeHandle>(section);
  out.data_ = static_cast<const std::uint8_t*>(p);
  out.size_ = static_cast<std::size_t>(file.size());
  // Read front to back: the prefetch a sequential read would get (Windows 8 and later; advice only).
  WIN32_MEMORY_RANGE_ENTRY range{p, out.size_};
  ::PrefetchVirtualMemory(::GetCurrentProcess(), 1, &range, 0);
  return out;
}

void Mapping::unmap() {
  if (data_ != nullptr) ::UnmapViewOfFile(data_);
  if (section_ != kNoHandle) ::CloseHandle(as_handle(section_));
  data_ = nullptr;
  size_ = 0;
  section_ = kNoHandle;
}

void Mapping::release(std::size_t offset, std::size_t length) const {
  if (data_ == nullptr || offset >= size_) return;
  length = std::min(length, size_ - offset);
  SYSTEM_INFO info{};
  ::GetSystemInfo(&info);
  const std::size_t page = info.dwPageSize;
  std::size_t begin = (offset + page - 1) / page * page;
  std::size_t end = offset + length == size_ ? size_ : (offset + length) / page * page;
  if (begin >= end) return;
  // VirtualUnlock of pages that are not locked takes them out of the working set (documented); a read
  // brings them back from the file's cache.
  ::VirtualUnlock(const_cast<std::uint8_t*>(data_) + begin, end - begin);
}

}  // namespace anvil::platform
