#include "cli/version.hpp"

#include <absl/strings/str_cat.h>

#include <iostream>

#include "anvilrt_git.hpp"  // generated at build time: ANVILRT_GIT
#include "cli/common.hpp"
#include "model/document.hpp"

namespace anvil::cli {

std::string version_text() {
  std::string text = absl::StrCat("anvilrt ", ANVILRT_VERSION);
  if (std::string_view git = ANVILRT_GIT; !git.empty()) absl::StrAppend(&text, " (git ", std::string(git), ")");
  absl::StrAppend(&text, "\nreads: level data of the dialects");
  const char* separator = " ";
  for (Game game : kGames) {
    absl::StrAppend(&text, separator, std::string(game_name(game)));
    separator = ", ";
  }
  absl::StrAppend(&text, "; JSON documents of format ", std::string(kDocumentFormat), " (dump, build)\n");
  return text;
}

int run_version(int argc, char** argv) {
  po::options_description options("options");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv, "usage: anvilrt version (or anvilrt --version)", options, {}, common, vm, code)) return code;
  std::cout << version_text();
  return kOk;
}

}  // namespace anvil::cli
