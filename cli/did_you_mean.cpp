#include "cli/did_you_mean.hpp"

#include <algorithm>
#include <cstddef>
#include <vector>

namespace anvil::cli {
namespace {

// Optimal string alignment distance: Levenshtein with a swap of two neighbours as one edit ("isntall").
std::size_t edit_distance(std::string_view a, std::string_view b) {
  const std::size_t n = a.size(), m = b.size();
  std::vector<std::vector<std::size_t>> d(n + 1, std::vector<std::size_t>(m + 1));
  for (std::size_t i = 0; i <= n; ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= m; ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= n; ++i)
    for (std::size_t j = 1; j <= m; ++j) {
      const std::size_t cost = a[i - 1] == b[j - 1] ? 0 : 1;
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[n][m];
}

}  // namespace

std::string did_you_mean(std::string_view typed, std::span<const std::string_view> known) {
  constexpr std::size_t kFarthest = 2;
  std::string_view best;
  std::size_t best_distance = kFarthest + 1;
  bool tied = false;
  for (std::string_view name : known) {
    const std::size_t distance = edit_distance(typed, name);
    if (distance < best_distance) {
      best = name;
      best_distance = distance;
      tied = false;
    } else if (distance == best_distance) {
      tied = true;
    }
  }
  // A name of one or two letters is within two edits of nearly anything: no guess for those.
  if (best.empty() || tied || typed.size() <= kFarthest) return {};
  return " (did you mean '" + std::string(best) + "'?)";
}

}  // namespace anvil::cli
