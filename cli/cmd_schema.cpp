// anvilrt schema --markdown | --ksy | --hexpat [-o OUT]
#include <iostream>

#include "cli/commands.hpp"
#include "schema/schema.hpp"
#include "platform/replace_file.hpp"

namespace anvil::cli {

int run_schema(int argc, char** argv) {
  std::string out;
  po::options_description options("options");
  options.add_options()("markdown", "the format reference (docs/format.md is this output)")(
      "ksy", "a Kaitai Struct description; each top-level type reads one object of the length dump gives")(
      "hexpat", "the same for ImHex's pattern language")("output,o", po::value(&out),
                                                         "write to OUT (atomically) instead of standard output");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt schema --markdown | --ksy | --hexpat [-o OUT] [-q] [-v]\n\n"
             "Prints a description of every structure anvilrt reads, generated from the same layout\n"
             "declarations that drive the reader, the writer and JSON.",
             options, {}, common, vm, code))
    return code;
  int chosen = static_cast<int>(vm.count("markdown") + vm.count("ksy") + vm.count("hexpat"));
  if (chosen != 1) {
    error("give one of --markdown, --ksy or --hexpat (see anvilrt schema --help)");
    return kBadInput;
  }
  std::string text = vm.count("markdown") ? schema::format_markdown()
                     : vm.count("ksy")    ? schema::kaitai_struct()
                                          : schema::imhex_pattern();
  if (out.empty()) {
    std::cout << text;
    return std::cout.flush() ? kOk : kBadInput;
  }
  if (auto s = platform::write_file_atomically(out, {reinterpret_cast<const u8*>(text.data()), text.size()}); !s.ok()) {
    error(std::string(s.message()));
    return kBadInput;
  }
  return kOk;
}

}  // namespace anvil::cli
