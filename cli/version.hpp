// `anvilrt --version`: the version, the git commit it was built from (when built from a checkout) and the
// formats it reads.
#pragma once

#include <string>

namespace anvil::cli {

std::string version_text();
int run_version(int argc, char** argv);

}  // namespace anvil::cli
