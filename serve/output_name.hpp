// Where "Write a copy" may write: the page names only a file NAME, never a path. It lands in the output
// folder fixed on the command line (`--out-dir`, by default the input's folder); a name with a
// separator, "..", a leading dot, or a control character is refused; so is the input itself, and an
// existing file unless the user confirmed replacing it in the page. The copy of a game folder is a folder:
// a new one, or an existing empty one (as `anvilrt patch DIR -o OUTDIR` takes it); never one replaced.
#pragma once

#include <absl/status/statusor.h>

#include <string>
#include <string_view>

namespace anvil::serve {

// The path to write for `name`, or the refusal (one line).
absl::StatusOr<std::string> output_target(std::string_view name, const std::string& folder,
                                          const std::string& input_path, bool replace_existing,
                                          bool folder_copy = false);

}  // namespace anvil::serve
