// A shared library that one command loads when it runs, so that what the library links is loaded by that
// command alone and costs no other command's start (the HTTP server of `anvilrt serve`,
// serve/http_module.hpp).
#pragma once

#include <absl/status/statusor.h>

#include <string>

namespace anvil::platform {

// The folder that holds the running executable, in UTF-8.
absl::StatusOr<std::string> executable_folder();

// The address of the function `symbol` in the shared library at `utf8_path`, which is loaded on the first
// call and stays loaded until the process ends. An error (one line, naming the file and the system's
// reason) when the file cannot be loaded or has no such symbol.
absl::StatusOr<void*> module_symbol(const std::string& utf8_path, const char* symbol);

}  // namespace anvil::platform
