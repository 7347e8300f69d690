// What the Windows implementations share: UTF-8 <-> UTF-16 for the wide APIs, and a Win32 error as a
// status whose message says why in a line a modder can act on.
#pragma once

#include <absl/status/status.h>
#include <windows.h>

#include <string>
#include <string_view>

#include "platform/native_handle.hpp"

namespace anvil::platform::windows {

// UTF-16 of `utf8` (invalid bytes become U+FFFD, as MultiByteToWideChar does).
std::wstring wide(std::string_view utf8);
// UTF-8 of `utf16`.
std::string narrow(std::wstring_view utf16);
// A Win32 error code as a status: the common ones in words of our own (a locked file names the likely
// cause), the rest in the system's words (FormatMessageW, one line).
absl::Status error_status(DWORD error);
inline absl::Status last_error_status() { return error_status(::GetLastError()); }
// The path the open `handle` names now, in the wide APIs' form ("\\?\C:\...", long paths allowed).
std::wstring final_path(HANDLE handle);
// The HANDLE a NativeHandle holds.
inline HANDLE as_handle(NativeHandle h) { return reinterpret_cast<HANDLE>(h); }
// Installs, once, the console control handler that removes the temporaries (temp_file.cpp) and ends the
// process; stop_signals.cpp installs its own after it, so that its own is asked first.
void remove_temporaries_on_interrupt();
// `folder`\`name`.
std::wstring child(const std::wstring& folder, const std::wstring& name);

}  // namespace anvil::platform::windows
