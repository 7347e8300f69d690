// anvilrt: read, check, edit and write back Anvil/Scimitar level data. Dispatches to one command.
#include <iostream>
#include <string_view>

#include "cli/commands.hpp"

namespace {

constexpr const char* kUsage = R"(usage: anvilrt COMMAND [ARGS] (anvilrt COMMAND --help for each)

commands:
  verify PATH...       prove that each file reads and writes back byte for byte
                       (level files, decompressed data files, .forge archives)
  dump FILE            print the JSON document of a level file, data file or archive (--full: enough
                       to rebuild a level or data file)
  build DUMP.json      rebuild a level file from a --full dump
  patch FILE PATCH     apply a JSON patch, all or nothing (-o OUT | --in-place, --dry-run)
  diff A B             print the patch that turns level file A into B
  gen -o FILE          write synthetic level data following the research notes' distributions
  stats PATH...        census of level files, data files, archives: objects, field values, near misses
  ls FORGE             list the data files of a .forge archive (--json, --objects)
  extract FORGE -o DIR write data files of a .forge archive, decompressed ([NAME|0xID ...])
  schema               the format reference (--markdown), or a Kaitai Struct / ImHex description

The bytes anvilrt reads are described in docs/format.md (anvilrt schema --markdown).
)";

}  // namespace

int main(int argc, char** argv) {
  using namespace anvil::cli;
  if (argc < 2) {
    std::cerr << kUsage;
    return kBadInput;
  }
  std::string_view command = argv[1];
  if (command == "--help" || command == "-h" || command == "help") {
    std::cout << kUsage;
    return kOk;
  }
  for (const Command& c : commands())
    if (command == c.name) return c.run(argc - 1, argv + 1);
  error("unknown command '" + std::string(command) + "' (see anvilrt --help)");
  return kBadInput;
}
