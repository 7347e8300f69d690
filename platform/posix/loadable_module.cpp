// platform/loadable_module.hpp on POSIX: dlopen and dlsym; the executable by the link /proc/self/exe.
#include "platform/loadable_module.hpp"

#include <absl/strings/str_cat.h>
#include <dlfcn.h>

#include <filesystem>
#include <system_error>

namespace anvil::platform {

absl::StatusOr<std::string> executable_folder() {
  std::error_code error;
  const std::filesystem::path self = std::filesystem::read_symlink("/proc/self/exe", error);
  if (error) return absl::UnavailableError(absl::StrCat("cannot find the running binary: ", error.message()));
  return self.parent_path().string();
}

absl::StatusOr<void*> module_symbol(const std::string& utf8_path, const char* symbol) {
  // RTLD_LOCAL: its symbols answer only this lookup; RTLD_NOW: a missing one fails here, not mid-run.
  void* module = ::dlopen(utf8_path.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!module) return absl::NotFoundError(::dlerror());  // dlerror's line names the file
  ::dlerror();
  void* address = ::dlsym(module, symbol);
  if (const char* why = ::dlerror()) return absl::NotFoundError(why);
  if (!address) return absl::NotFoundError(absl::StrCat(utf8_path, ": no function ", symbol));
  return address;
}

}  // namespace anvil::platform
