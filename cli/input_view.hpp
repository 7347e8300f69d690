// An opened input (cli/archive_input.hpp) as the pipelines over many inputs take it (pipeline/input_view.hpp).
#pragma once

#include <optional>
#include <string>

#include "cli/archive_input.hpp"
#include "pipeline/input_view.hpp"
#include "view/map_run.hpp"

namespace anvil::cli {

// Views of `o`'s bytes and tables: valid while `o` lives.
InputView input_view(const OpenedInput& o);

// What a command over a whole level set reads (`map`, `export`, `import`): a game folder, or the file
// opened into `opened` (its notes said, its dialect picked). Nothing when the file does not read (said).
std::optional<view::MapTarget> level_set_target(const std::string& file, const std::string& game_option,
                                                const Common& common, PathErrors& path_errors,
                                                std::optional<OpenedInput>& opened);

}  // namespace anvil::cli
