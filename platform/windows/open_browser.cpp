// platform/open_browser.hpp on Windows: ShellExecuteW "open" on the URL, which starts the browser the user
// chose for web addresses and returns without waiting for it (no shell parses the URL).
#include "platform/open_browser.hpp"

#include <absl/strings/str_cat.h>

// system.hpp (windows.h) first: shellapi.h uses its types.
// clang-format off
#include "platform/windows/system.hpp"
#include <shellapi.h>
// clang-format on

namespace anvil::platform {

absl::Status open_browser(const std::string& url) {
  const std::wstring address = windows::wide(url);
  const auto result =
      reinterpret_cast<INT_PTR>(::ShellExecuteW(nullptr, L"open", address.c_str(), nullptr, nullptr, SW_SHOWNORMAL));
  // Above 32 is success; at or below, a Win32 error code or one of ShellExecute's own (SE_ERR_*).
  if (result > 32) return absl::OkStatus();
  if (result == SE_ERR_NOASSOC)
    return absl::UnavailableError("cannot start the browser: no program is set to open web addresses");
  return absl::UnavailableError(
      absl::StrCat("cannot start the browser: ", windows::error_status(static_cast<DWORD>(result)).message()));
}

}  // namespace anvil::platform
