#include "platform/windows/system.hpp"

#include <vector>

namespace anvil::platform::windows {

std::wstring wide(std::string_view utf8) {
  if (utf8.empty()) return {};
  const int size = static_cast<int>(utf8.size());
  const int n = ::MultiByteToWideChar(CP_UTF8, 0, utf8.data(), size, nullptr, 0);
  std::wstring out(static_cast<std::size_t>(n), L'\0');
  ::MultiByteToWideChar(CP_UTF8, 0, utf8.data(), size, out.data(), n);
  return out;
}

std::string narrow(std::wstring_view utf16) {
  if (utf16.empty()) return {};
  const int size = static_cast<int>(utf16.size());
  const int n = ::WideCharToMultiByte(CP_UTF8, 0, utf16.data(), size, nullptr, 0, nullptr, nullptr);
  std::string out(static_cast<std::size_t>(n), '\0');
  ::WideCharToMultiByte(CP_UTF8, 0, utf16.data(), size, out.data(), n, nullptr, nullptr);
  return out;
}

namespace {

std::string system_words(DWORD error) {
  wchar_t* text = nullptr;
  const DWORD n =
      ::FormatMessageW(FORMAT_MESSAGE_ALLOCATE_BUFFER | FORMAT_MESSAGE_FROM_SYSTEM | FORMAT_MESSAGE_IGNORE_INSERTS,
                       nullptr, error, 0, reinterpret_cast<wchar_t*>(&text), 0, nullptr);
  std::string words = n > 0 ? narrow(std::wstring_view(text, n)) : "Windows error " + std::to_string(error);
  if (text != nullptr) ::LocalFree(text);
  // One line, without the closing period and line break the system's messages carry.
  for (char& c : words)
    if (c == '\r' || c == '\n') c = ' ';
  while (!words.empty() && (words.back() == ' ' || words.back() == '.')) words.pop_back();
  return words;
}

}  // namespace

absl::Status error_status(DWORD error) {
  switch (error) {
    case ERROR_FILE_NOT_FOUND:
    case ERROR_PATH_NOT_FOUND:
    case ERROR_INVALID_NAME:
      return absl::NotFoundError(error == ERROR_INVALID_NAME ? "not a name Windows accepts"
                                                             : "No such file or directory");
    case ERROR_FILE_EXISTS:
    case ERROR_ALREADY_EXISTS:
      return absl::AlreadyExistsError("File exists");
    case ERROR_SHARING_VIOLATION:
    case ERROR_LOCK_VIOLATION:
    case ERROR_USER_MAPPED_FILE:
    case ERROR_UNABLE_TO_REMOVE_REPLACED:
      return absl::UnavailableError(
          "in use: another program (the game?) holds it open without sharing it; close that program and try again");
    case ERROR_ACCESS_DENIED:
      return absl::PermissionDeniedError("Permission denied");
    case ERROR_DIRECTORY:
      return absl::FailedPreconditionError("Not a directory");
    case ERROR_DISK_FULL:
    case ERROR_HANDLE_DISK_FULL:
      return absl::ResourceExhaustedError("No space left on device");
    default:
      return absl::UnknownError(system_words(error));
  }
}

std::wstring final_path(HANDLE handle) {
  std::vector<wchar_t> buffer(MAX_PATH);
  for (;;) {
    const DWORD n = ::GetFinalPathNameByHandleW(handle, buffer.data(), static_cast<DWORD>(buffer.size()),
                                                FILE_NAME_NORMALIZED | VOLUME_NAME_DOS);
    if (n == 0) return {};
    if (n < buffer.size()) return std::wstring(buffer.data(), n);
    buffer.resize(n + 1);
  }
}

std::wstring child(const std::wstring& folder, const std::wstring& name) {
  if (folder.empty() || folder.back() == L'\\' || folder.back() == L'/') return folder + name;
  return folder + L'\\' + name;
}

}  // namespace anvil::platform::windows
