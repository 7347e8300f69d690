// anvilrt extract FORGE [NAME|0xID ...] -o DIR
#include <absl/strings/str_format.h>

#include <iostream>

#include "cli/archive_input.hpp"
#include "cli/commands.hpp"
#include "pipeline/forge_extract.hpp"

namespace anvil::cli {

int run_extract(int argc, char** argv) {
  std::string path, dir;
  std::vector<std::string> selectors;
  po::options_description options("options");
  options.add_options()("output,o", po::value(&dir)->required(), "the folder to write to (created if missing)")(
      "archive", po::value(&path)->required(), "the .forge archive")("select", po::value(&selectors)->multitoken(),
                                                                     "data file names or 0x ids");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt extract FORGE [NAME|0xID ...] -o DIR [-q] [-v]\n\n"
             "Writes each selected data file (all when none is named), decompressed, to DIR/NAME.data: names\n"
             "made safe for any file system, and -0xID added to names that clash. Each file is written\n"
             "atomically. Exit 0; 2 when the archive or a data file does not read or a selector names none.",
             options, {{"archive", "FORGE"}, {"select", "NAME|0xID", -1}, {"output", "-o DIR", 0}}, common, vm, code))
    return code;
  PathErrors path_errors;
  auto input = open_input(path, path_errors);
  if (!input) return kBadInput;
  // The dialect plays no part: data files are written as they decompress.
  auto opened = open_archive(*input, path, "ac2", selectors, common.quiet);
  if (!opened) return kBadInput;
  auto written = forge::extract(input->bytes(), opened->archive, opened->selected, dir);
  if (!written.ok()) {
    error(path + ": " + std::string(written.status().message()));
    return kBadInput;
  }
  for (const auto& e : *written) std::cout << absl::StrFormat("%s: %d bytes\n", e.path, e.size);
  return kOk;
}

}  // namespace anvil::cli
