// serve/http_module.hpp where the HTTP server is a module: ANVILRT_HTTP_MODULE_FILE (its file name) beside the
// binary, as the build leaves it, or in ANVILRT_HTTP_MODULE_DIR (relative to the binary's folder), where
// `cmake --install` puts it. Both are given by serve/CMakeLists.txt.
#include <absl/strings/str_cat.h>

#include <filesystem>

#include "platform/loadable_module.hpp"
#include "platform/paths.hpp"
#include "serve/http_module.hpp"

namespace anvil::serve {

absl::StatusOr<MakeHttpServer> http_server_maker() {
  absl::StatusOr<std::string> folder = platform::executable_folder();
  if (!folder.ok()) return folder.status();
  const std::filesystem::path beside = platform::path_of(*folder) / ANVILRT_HTTP_MODULE_FILE;
  const std::filesystem::path installed =
      (platform::path_of(*folder) / ANVILRT_HTTP_MODULE_DIR / ANVILRT_HTTP_MODULE_FILE).lexically_normal();
  const std::filesystem::path& module = std::filesystem::exists(beside) ? beside : installed;
  absl::StatusOr<void*> entry = platform::module_symbol(platform::utf8_of(module), kMakeHttpServerSymbol);
  if (!entry.ok())
    return absl::NotFoundError(absl::StrCat("cannot load the HTTP server: ", entry.status().message(), " (",
                                            ANVILRT_HTTP_MODULE_FILE,
                                            " is looked for beside the binary, then where it is installed)"));
  return reinterpret_cast<MakeHttpServer>(*entry);
}

}  // namespace anvil::serve
