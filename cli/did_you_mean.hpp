// The suggestion after an unknown command or subcommand ("unknown command 'verfy' (did you mean
// 'verify'?)"): the one known name within two edits of what was typed, as git does for its commands.
#pragma once

#include <span>
#include <string>
#include <string_view>

namespace anvil::cli {

// " (did you mean 'NAME'?)" for the nearest of `known` within two insertions, deletions, substitutions or
// swaps of two neighbours; empty when none is that near or two are equally near.
std::string did_you_mean(std::string_view typed, std::span<const std::string_view> known);

}  // namespace anvil::cli
