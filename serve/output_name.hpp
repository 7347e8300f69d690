// Where "Write a copy" may write: the page names only a file NAME, never a path. It lands in the output
// folder fixed on the command line (`--out-dir`, by default the input's folder); a name with a
// separator, "..", a leading dot, or a control character is refused; so is the input itself, and an
// existing file unless the user confirmed replacing it in the page.
#pragma once

#include <absl/status/statusor.h>

#include <string>
#include <string_view>

namespace anvil::serve {

// The path to write for `name`, or the refusal (one line).
absl::StatusOr<std::string> output_target(std::string_view name, const std::string& folder,
                                          const std::string& input_path, bool replace_existing);

}  // namespace anvil::serve
