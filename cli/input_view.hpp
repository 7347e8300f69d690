// An opened input (cli/archive_input.hpp) as the pipelines over many inputs take it (pipeline/input_view.hpp).
#pragma once

#include "cli/archive_input.hpp"
#include "pipeline/input_view.hpp"

namespace anvil::cli {

// Views of `o`'s bytes and tables: valid while `o` lives.
InputView input_view(const OpenedInput& o);

}  // namespace anvil::cli
