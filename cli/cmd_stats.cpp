#include "cli/commands.hpp"
namespace anvil::cli {
int run_stats(int, char**) { return kBadInput; }
}  // namespace anvil::cli
