#include "platform/process.hpp"

#include "platform/windows/system.hpp"

namespace anvil::platform {

namespace {

// One argument quoted as CommandLineToArgvW (and the C runtime) read it back: in quotes when it holds
// a space, a tab or a quote or is empty; backslashes doubled before a quote, a quote escaped.
std::wstring quoted(const std::wstring& arg) {
  if (!arg.empty() && arg.find_first_of(L" \t\"") == std::wstring::npos) return arg;
  std::wstring out = L"\"";
  std::size_t backslashes = 0;
  for (wchar_t c : arg) {
    if (c == L'\\') {
      ++backslashes;
      continue;
    }
    out.append(c == L'"' ? 2 * backslashes + 1 : backslashes, L'\\');
    backslashes = 0;
    out += c;
  }
  out.append(2 * backslashes, L'\\');
  return out + L"\"";
}

HANDLE inheritable(const std::wstring& path, DWORD access, DWORD disposition) {
  SECURITY_ATTRIBUTES inherit{sizeof(SECURITY_ATTRIBUTES), nullptr, TRUE};
  return ::CreateFileW(path.c_str(), access, FILE_SHARE_READ | FILE_SHARE_WRITE | FILE_SHARE_DELETE, &inherit,
                       disposition, FILE_ATTRIBUTE_NORMAL, nullptr);
}

}  // namespace

int run_program(const std::vector<std::string>& args, const std::string& out, const std::string& err) {
  if (args.empty()) return -1;
  std::wstring line;
  for (const std::string& a : args) line += (line.empty() ? L"" : L" ") + quoted(windows::wide(a));
  HANDLE in = inheritable(L"NUL", GENERIC_READ, OPEN_EXISTING);
  HANDLE out_file = inheritable(windows::wide(out), GENERIC_WRITE, CREATE_ALWAYS);
  HANDLE err_file = inheritable(windows::wide(err), GENERIC_WRITE, CREATE_ALWAYS);
  int code = -1;
  if (in != INVALID_HANDLE_VALUE && out_file != INVALID_HANDLE_VALUE && err_file != INVALID_HANDLE_VALUE) {
    STARTUPINFOW startup{};
    startup.cb = sizeof(startup);
    startup.dwFlags = STARTF_USESTDHANDLES;
    startup.hStdInput = in;
    startup.hStdOutput = out_file;
    startup.hStdError = err_file;
    PROCESS_INFORMATION process{};
    const std::wstring program = windows::wide(args[0]);
    if (::CreateProcessW(program.c_str(), line.data(), nullptr, nullptr, TRUE, 0, nullptr, nullptr, &startup,
                         &process)) {
      ::WaitForSingleObject(process.hProcess, INFINITE);
      DWORD exit_code = 0;
      if (::GetExitCodeProcess(process.hProcess, &exit_code)) code = static_cast<int>(exit_code);
      ::CloseHandle(process.hThread);
      ::CloseHandle(process.hProcess);
    }
  }
  for (HANDLE h : {in, out_file, err_file})
    if (h != INVALID_HANDLE_VALUE) ::CloseHandle(h);
  return code;
}

long process_id() { return static_cast<long>(::GetCurrentProcessId()); }

}  // namespace anvil::platform
