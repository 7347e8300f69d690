// The census as people read it (text in the style of the research notes: "IsFake 1 on 2,036 of 2,195")
// and as scripts read it (JSON with the same numbers). One walk over the census feeds both.
#pragma once

#include <span>
#include <string>

#include "stats/census.hpp"

namespace anvil::stats {

// `files` names the census' file indices (near-miss examples).
std::string text_report(const Census& census, std::span<const std::string> files);
std::string json_report(const Census& census, std::span<const std::string> files);

// 2195 -> "2,195".
std::string grouped(u64 n);

}  // namespace anvil::stats
