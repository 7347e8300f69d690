// anvilrt build DUMP.json -o FILE [-q] [-v]
#include <fstream>
#include <sstream>

#include "cli/commands.hpp"
#include "pipeline/build.hpp"
#include "platform/replace_file.hpp"

namespace anvil::cli {

int run_build(int argc, char** argv) {
  std::string dump, out;
  po::options_description options("options");
  options.add_options()("output,o", po::value(&out)->required(),
                        "the level file to write (atomically; - for standard output)")(
      "dump", po::value(&dump)->required(),
      "a dump made with anvilrt dump --full (possibly edited; - for standard input)");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv, "usage: anvilrt build DUMP.json -o FILE [-q] [-v]", options,
             {{"dump", "DUMP.json"}, {"output", "-o FILE", 0}}, common, vm, code))
    return code;

  PathErrors path_errors;
  auto input = open_input(dump, path_errors);
  if (!input) return kBadInput;
  auto bytes = input->bytes();
  // The dump's pages leave memory as the one-pass reading passes them (they come back from the page
  // cache if the document path has to read it all).
  auto built = build_from_dump(std::string_view(reinterpret_cast<const char*>(bytes.data()), bytes.size()),
                               [&](std::size_t passed) { input->release(0, passed); });
  if (!built.ok()) {
    error(dump + ": " + std::string(built.status().message()));
    return kBadInput;
  }
  if (auto s = platform::write_file_atomically(out, *built); !s.ok()) {
    error(std::string(s.message()));
    return kBadInput;
  }
  return kOk;
}

}  // namespace anvil::cli
