#include "platform/replace_file.hpp"

#include <absl/strings/str_cat.h>
#include <fcntl.h>
#include <io.h>

#include <cerrno>
#include <cstring>

#include "platform/file_stream.hpp"
#include "platform/windows/system.hpp"

namespace anvil::platform {

using windows::narrow;
using windows::wide;

namespace {

// The longest file name a temporary carries of its target's: within 255 UTF-16 units with the dot and
// ".anvilrt-tmp-XXXXXX" around it.
constexpr std::size_t kNameKept = 235;

constexpr DWORD kShareAll = FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE;

absl::Status fail(const std::string& target, const absl::Status& why) {
  return absl::InvalidArgumentError(absl::StrCat(target, ": ", why.message()));
}

absl::Status cannot_write(const std::string& target, absl::string_view why) {
  return absl::InternalError(absl::StrCat(target, ": cannot write: ", why));
}

// What an output path names on Windows (the POSIX side: posix/output_target.hpp).
struct Target {
  enum class Kind { kStandardOutput, kSpecial, kNewFile, kRegularFile } kind = Kind::kNewFile;
  std::wstring path;  // links resolved for a regular file (GetFinalPathNameByHandleW)
  DWORD attributes = 0;
};

// `at_name` (OutputOptions::at_name): a symbolic link or junction at the name is refused, not followed.
absl::StatusOr<Target> resolve(const std::string& target, bool at_name = false) {
  Target out;
  if (target == "-" && !at_name) {
    out.kind = Target::Kind::kStandardOutput;
    return out;
  }
  out.path = wide(target);
  if (at_name) {
    const DWORD attributes = ::GetFileAttributesW(out.path.c_str());
    if (attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT))
      return absl::InvalidArgumentError(absl::StrCat(target, ": is a link: the output is not written through it"));
  }
  HANDLE h = ::CreateFileW(out.path.c_str(), FILE_READ_ATTRIBUTES, kShareAll, nullptr, OPEN_EXISTING,
                           FILE_FLAG_BACKUP_SEMANTICS | (at_name ? FILE_FLAG_OPEN_REPARSE_POINT : 0), nullptr);
  if (h == INVALID_HANDLE_VALUE) {
    const DWORD error = ::GetLastError();
    if (error == ERROR_FILE_NOT_FOUND) return out;  // a new file, in a folder that exists
    return fail(target, windows::error_status(error));
  }
  BY_HANDLE_FILE_INFORMATION info{};
  if (::GetFileType(h) != FILE_TYPE_DISK) {
    out.kind = Target::Kind::kSpecial;  // NUL, CON, COM1, a named pipe: written as they are
  } else if (!::GetFileInformationByHandle(h, &info)) {
    absl::Status s = windows::last_error_status();
    ::CloseHandle(h);
    return fail(target, s);
  } else if (info.dwFileAttributes & FILE_ATTRIBUTE_DIRECTORY) {
    ::CloseHandle(h);
    return absl::InvalidArgumentError(absl::StrCat(target, ": Is a directory"));
  } else {
    out.kind = Target::Kind::kRegularFile;
    out.attributes = info.dwFileAttributes;
    // The file at the end of any symbolic links: it is replaced, the links stay links.
    if (std::wstring final = windows::final_path(h); !final.empty()) out.path = final;
  }
  ::CloseHandle(h);
  return out;
}

// Whether another program holds `path` open in a way that replacing it cannot get past (the game
// running): a handle that shares no deletion. Asked before anything is written, so that the refusal is
// the file's one line and nothing is left behind.
absl::Status check_not_locked(const std::string& target, const std::wstring& path) {
  HANDLE h =
      ::CreateFileW(path.c_str(), DELETE, kShareAll, nullptr, OPEN_EXISTING, FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (h != INVALID_HANDLE_VALUE) {
    ::CloseHandle(h);
    return absl::OkStatus();
  }
  const DWORD error = ::GetLastError();
  if (error == ERROR_SHARING_VIOLATION || error == ERROR_LOCK_VIOLATION)
    return absl::FailedPreconditionError(absl::StrCat(target, ": ", windows::error_status(error).message()));
  return absl::OkStatus();  // any other reason is met, and reported, where it matters
}

std::FILE* stream_on(HANDLE h, int flags) {
  const int fd = ::_open_osfhandle(reinterpret_cast<intptr_t>(h), flags | _O_BINARY);
  if (fd < 0) return nullptr;
  std::FILE* file = ::_fdopen(fd, "wb");
  if (file == nullptr) ::_close(fd);
  return file;
}

// The temporary's name beside `final`: ".NAME.anvilrt-tmp-XXXXXX" in the same folder.
std::string temp_pattern(const std::wstring& final) {
  const std::size_t slash = final.find_last_of(L"\\/");
  const std::wstring folder = slash == std::wstring::npos ? L"" : final.substr(0, slash + 1);
  const std::wstring name = (slash == std::wstring::npos ? final : final.substr(slash + 1)).substr(0, kNameKept);
  return narrow(folder + L"." + name + L".anvilrt-tmp-XXXXXX");
}

}  // namespace

absl::Status AtomicFile::open(const std::string& target, const OutputOptions& options) {
  discard();
  target_ = target;
  auto resolved = resolve(target, options.at_name);
  if (!resolved.ok()) return resolved.status();
  using Kind = Target::Kind;
  if (options.in_place && resolved->kind != Kind::kRegularFile)
    return absl::InvalidArgumentError(absl::StrCat(target, ": --in-place replaces a regular file; this is not one"));
  switch (resolved->kind) {
    case Kind::kStandardOutput: {
      const int fd = ::_dup(1);
      if (fd >= 0) {
        ::_setmode(fd, _O_BINARY);
        file_ = ::_fdopen(fd, "wb");
        if (file_ == nullptr) ::_close(fd);
      }
      break;
    }
    case Kind::kSpecial: {
      HANDLE h = ::CreateFileW(resolved->path.c_str(), GENERIC_WRITE, FILE_SHARE_READ | FILE_SHARE_WRITE, nullptr,
                               OPEN_EXISTING, FILE_ATTRIBUTE_NORMAL, nullptr);
      if (h == INVALID_HANDLE_VALUE) return cannot_write(target, windows::last_error_status().message());
      file_ = stream_on(h, _O_WRONLY);
      if (file_ == nullptr) ::CloseHandle(h);
      break;
    }
    case Kind::kNewFile:
    case Kind::kRegularFile: {
      if (resolved->kind == Kind::kRegularFile) {
        if (options.in_place && !options.force && (resolved->attributes & FILE_ATTRIBUTE_READONLY))
          return absl::InvalidArgumentError(
              absl::StrCat(target, ": the file is read-only (--force replaces it all the same)"));
        if (auto s = check_not_locked(target, resolved->path); !s.ok()) return s;
      }
      const std::string pattern = temp_pattern(resolved->path);
      auto temp = TempFile::create(pattern);
      if (!temp.ok()) {
        const std::size_t slash = pattern.find_last_of("\\/");
        return absl::InternalError(absl::StrCat(target, ": cannot create a temporary file in ",
                                                slash == std::string::npos ? "." : pattern.substr(0, slash), ": ",
                                                temp.status().message()));
      }
      temp_ = std::move(*temp);
      final_ = narrow(resolved->path);
      // The stream owns the handle from here: fclose closes it.
      file_ = stream_on(reinterpret_cast<HANDLE>(temp_.handle()), _O_RDWR);
      break;
    }
  }
  if (file_ == nullptr) {
    const int error = errno;
    discard();
    return cannot_write(target, std::strerror(error));
  }
  return absl::OkStatus();
}

absl::Status AtomicFile::commit() {
  if (file_ == nullptr) return absl::FailedPreconditionError("no file open");
  bool ok = std::fflush(file_) == 0 && !std::ferror(file_) && (!temp_.held() || sync(file_));
  int error = errno;
  if (std::fclose(file_) != 0 && ok) {
    ok = false;
    error = errno;
  }
  file_ = nullptr;
  if (!ok) {
    discard();
    return cannot_write(target_, std::strerror(error));
  }
  if (temp_.held()) {
    absl::Status renamed = temp_.rename_to(final_);
    if (!renamed.ok()) {
      discard();
      return cannot_write(target_, renamed.message());
    }
  }
  return absl::OkStatus();
}

absl::Status write_file_atomically(const std::string& target, std::span<const std::uint8_t> bytes) {
  AtomicFile file;
  if (auto s = file.open(target); !s.ok()) return s;
  if (!bytes.empty() && std::fwrite(bytes.data(), 1, bytes.size(), file.stream()) != bytes.size())
    return cannot_write(target, std::strerror(errno));
  return file.commit();
}

bool writes_standard_output(const std::string& target) {
  if (target == "-") return true;
  BY_HANDLE_FILE_INFORMATION out{}, named{};
  if (!::GetFileInformationByHandle(::GetStdHandle(STD_OUTPUT_HANDLE), &out)) return false;
  HANDLE h = ::CreateFileW(wide(target).c_str(), FILE_READ_ATTRIBUTES, kShareAll, nullptr, OPEN_EXISTING,
                           FILE_FLAG_BACKUP_SEMANTICS, nullptr);
  if (h == INVALID_HANDLE_VALUE) return false;
  const bool same = ::GetFileInformationByHandle(h, &named) && named.dwVolumeSerialNumber == out.dwVolumeSerialNumber &&
                    named.nFileIndexHigh == out.nFileIndexHigh && named.nFileIndexLow == out.nFileIndexLow;
  ::CloseHandle(h);
  return same;
}

}  // namespace anvil::platform
