// platform/loadable_module.hpp on Windows: LoadLibraryExW (the library's own folder and the system's
// searched for it and what it links, never the current folder) and GetProcAddress; the executable by
// GetModuleFileNameW.
#include "platform/loadable_module.hpp"

#include <absl/strings/str_cat.h>

#include <filesystem>

#include "platform/paths.hpp"
#include "platform/windows/system.hpp"

namespace anvil::platform {

absl::StatusOr<std::string> executable_folder() {
  std::wstring name(MAX_PATH, L'\0');
  for (;;) {
    const DWORD length = ::GetModuleFileNameW(nullptr, name.data(), static_cast<DWORD>(name.size()));
    if (length == 0)
      return absl::UnavailableError(
          absl::StrCat("cannot find the running binary: ", windows::last_error_status().message()));
    if (length < name.size()) {
      name.resize(length);
      break;
    }
    name.resize(name.size() * 2);
  }
  return windows::narrow(std::filesystem::path(name).parent_path().native());
}

absl::StatusOr<void*> module_symbol(const std::string& utf8_path, const char* symbol) {
  // The library's own folder can be searched only when it is named by a full path (LoadLibraryExW).
  const DWORD search = LOAD_LIBRARY_SEARCH_DEFAULT_DIRS |
                       (path_of(utf8_path).is_absolute() ? LOAD_LIBRARY_SEARCH_DLL_LOAD_DIR : DWORD{0});
  HMODULE module = ::LoadLibraryExW(windows::wide(utf8_path).c_str(), nullptr, search);
  if (!module) return absl::NotFoundError(absl::StrCat(utf8_path, ": ", windows::last_error_status().message()));
  FARPROC address = ::GetProcAddress(module, symbol);
  if (!address)
    return absl::NotFoundError(
        absl::StrCat(utf8_path, ": no function ", symbol, ": ", windows::last_error_status().message()));
  return reinterpret_cast<void*>(address);
}

}  // namespace anvil::platform
