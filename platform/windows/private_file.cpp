// platform/private_file.hpp on Windows: a folder created with a protected ACL that grants this user (the
// process token's user SID) full control and no one else anything, inherited by the file created in it.
#include "platform/private_file.hpp"

#include <absl/strings/str_cat.h>

// system.hpp (windows.h) first: sddl.h uses its types.
// clang-format off
#include "platform/windows/system.hpp"
#include <sddl.h>
// clang-format on

#include <filesystem>
#include <random>
#include <vector>

namespace anvil::platform {

using windows::last_error_status;
using windows::narrow;
using windows::wide;

namespace {

// "D:P(A;OICI;FA;;;<this user's SID>)": a protected DACL (nothing inherited from %TEMP%) whose one entry
// gives this user full access, to the folder and everything made in it. Empty on failure.
std::wstring owner_only_sddl() {
  HANDLE token = nullptr;
  if (!::OpenProcessToken(::GetCurrentProcess(), TOKEN_QUERY, &token)) return {};
  DWORD size = 0;
  ::GetTokenInformation(token, TokenUser, nullptr, 0, &size);
  std::vector<unsigned char> buffer(size);
  std::wstring sddl;
  LPWSTR sid = nullptr;
  if (size > 0 && ::GetTokenInformation(token, TokenUser, buffer.data(), size, &size) &&
      ::ConvertSidToStringSidW(reinterpret_cast<TOKEN_USER*>(buffer.data())->User.Sid, &sid)) {
    sddl = std::wstring(L"D:P(A;OICI;FA;;;") + sid + L")";
    ::LocalFree(sid);
  }
  ::CloseHandle(token);
  return sddl;
}

}  // namespace

absl::StatusOr<PrivateFile> PrivateFile::create(std::string_view prefix, std::string_view name,
                                                std::string_view contents) {
  std::error_code ec;
  const std::filesystem::path temp = std::filesystem::temp_directory_path(ec);
  if (ec) return absl::UnavailableError(absl::StrCat("no temporary folder: ", ec.message()));
  const std::wstring sddl = owner_only_sddl();
  PSECURITY_DESCRIPTOR descriptor = nullptr;
  if (sddl.empty() ||
      !::ConvertStringSecurityDescriptorToSecurityDescriptorW(sddl.c_str(), SDDL_REVISION_1, &descriptor, nullptr))
    return absl::UnavailableError(absl::StrCat("cannot make a private folder: ", last_error_status().message()));
  SECURITY_ATTRIBUTES attributes{sizeof(SECURITY_ATTRIBUTES), descriptor, FALSE};
  static constexpr char kLetters[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::random_device random;
  PrivateFile file;
  for (int attempt = 0; attempt < 100 && file.folder_.empty(); ++attempt) {
    std::string folder_name(prefix);
    for (int k = 0; k < 6; ++k) folder_name += kLetters[random() % (sizeof(kLetters) - 1)];
    const std::wstring folder = (temp / wide(folder_name)).wstring();
    if (::CreateDirectoryW(folder.c_str(), &attributes))
      file.folder_ = narrow(folder);
    else if (::GetLastError() != ERROR_ALREADY_EXISTS)
      break;
  }
  ::LocalFree(descriptor);
  if (file.folder_.empty())
    return absl::UnavailableError(
        absl::StrCat("cannot create a folder in ", narrow(temp.wstring()), ": ", last_error_status().message()));
  const std::wstring path = (std::filesystem::path(wide(file.folder_)) / wide(name)).wstring();
  HANDLE h = ::CreateFileW(path.c_str(), GENERIC_WRITE, 0, nullptr, CREATE_NEW, FILE_ATTRIBUTE_NORMAL, nullptr);
  if (h == INVALID_HANDLE_VALUE)
    return absl::UnavailableError(absl::StrCat("cannot create ", narrow(path), ": ", last_error_status().message()));
  file.path_ = narrow(path);
  DWORD written = 0;
  const bool ok = ::WriteFile(h, contents.data(), static_cast<DWORD>(contents.size()), &written, nullptr) &&
                  written == contents.size();
  const absl::Status why = ok ? absl::OkStatus() : last_error_status();
  ::CloseHandle(h);
  if (!ok) return absl::UnavailableError(absl::StrCat("cannot write ", file.path_, ": ", why.message()));
  return file;
}

void PrivateFile::remove() {
  if (!path_.empty()) ::DeleteFileW(wide(path_).c_str());
  if (!folder_.empty()) ::RemoveDirectoryW(wide(folder_).c_str());
  path_.clear();
  folder_.clear();
}

}  // namespace anvil::platform
