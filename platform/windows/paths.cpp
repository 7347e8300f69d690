#include "platform/paths.hpp"

// shellapi.h needs windows.h before it.
// clang-format off
#include <windows.h>
#include <shellapi.h>
// clang-format on

#include "platform/windows/system.hpp"

namespace anvil::platform {

std::vector<std::string> utf8_arguments(int argc, char** argv) {
  int count = 0;
  wchar_t** wide_argv = ::CommandLineToArgvW(::GetCommandLineW(), &count);
  if (wide_argv == nullptr) return std::vector<std::string>(argv, argv + argc);
  std::vector<std::string> out;
  out.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) out.push_back(windows::narrow(wide_argv[i]));
  ::LocalFree(wide_argv);
  return out;
}

bool is_link(const std::string& utf8) {
  const DWORD attributes = ::GetFileAttributesW(windows::wide(utf8).c_str());
  return attributes != INVALID_FILE_ATTRIBUTES && (attributes & FILE_ATTRIBUTE_REPARSE_POINT) != 0;
}

}  // namespace anvil::platform
