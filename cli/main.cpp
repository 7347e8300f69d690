// anvilrt: read, check, edit and write back Anvil/Scimitar level data. Dispatches to one command.
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <iostream>
#include <string>
#include <string_view>
#include <vector>

#include "cli/commands.hpp"
#include "cli/did_you_mean.hpp"
#include "cli/man_page.hpp"
#include "platform/paths.hpp"
#include "platform/std_streams.hpp"

namespace {

constexpr const char* kUsage =
    R"(usage: anvilrt COMMAND [ARGS] (anvilrt help COMMAND, or anvilrt COMMAND --help, for each)

commands:
  verify PATH...       prove that each file reads and writes back byte for byte
                       (level files, decompressed data files, .forge archives)
  dump FILE            print the JSON document of a level file, data file or archive (--full: enough
                       to rebuild a level or data file)
  build DUMP.json      rebuild a level file from a --full dump
  patch FILE PATCH     apply a JSON patch, all or nothing (-o OUT | --in-place, --dry-run); FILE may be
                       a game folder, whose archives change all or none (docs/game-folders.md)
  diff A B             print the patch that turns A into B (level files, data files, archives: what else
                       differs on stderr)
  gen -o FILE          write synthetic level data following the research notes' distributions
  stats PATH...        census of level files, data files, archives: objects, field values, near misses
  ls FORGE...          list the data files of .forge archives (--json, --objects)
  extract FORGE -o DIR write data files of a .forge archive, decompressed ([NAME|0xID ...]), and
                       DIR/forge.json, the list pack reads
  put FORGE FILE...    put extracted data files back into the archive, byte-exact (-o OUT | --in-place;
                       --add FILE, --remove NAME)
  pack DIR -o OUT      build a new .forge archive from a folder extract wrote (reads back to the
                       same data files; not byte-identical to the original)
  compact FORGE -o OUT rewrite a .forge archive without unreferenced bytes, stored bytes kept
  mod SUBCOMMAND DIR   mods in a game folder: check, install, list, uninstall, merge, forget, recover
                       (docs/mods.md)
  schema               the format reference (--markdown), or a Kaitai Struct / ImHex description
  map FILE -o OUT      a top-down map of every placed instance, SVG or PNG (--patch: before and after)
  export TARGET -o OUT a glTF scene (.glb, .gltf) of every placed instance, for Blender
                       (docs/blender.md)
  import SCENE --onto TARGET -o PATCH
                       the patch that an edited scene makes: instances moved, deleted, duplicated
  serve FILE           an editor in the browser, on 127.0.0.1 only, whose output is a patch file
                       (docs/serve.md)
  version              the version, the git commit it was built from, the formats it reads
  help COMMAND         the help of a command

every command takes -q/--quiet (no progress bar, no notes) and -v/--verbose (notes on each file).
The bytes anvilrt reads are described in docs/format.md (anvilrt schema --markdown).
)";

const anvil::cli::Command* find(std::string_view name) {
  for (const anvil::cli::Command& c : anvil::cli::commands())
    if (name == c.name) return &c;
  return nullptr;
}

// What a command printed on standard output must have reached it: a failed write there (a full disk) is
// an error naming it, with the system's reason, and exit 2 (unless the command failed already, and said
// why).
int flushed(int code) {
  std::cout.flush();
  const bool failed = std::fflush(stdout) != 0 || std::ferror(stdout) || !std::cout;
  if (!failed || code == anvil::cli::kBadInput) return code;
  anvil::cli::error(std::string("standard output: cannot write: ") + std::strerror(errno));
  return anvil::cli::kBadInput;
}

int unknown(std::string_view name) {
  std::vector<std::string_view> names;
  for (const anvil::cli::Command& c : anvil::cli::commands()) names.push_back(c.name);
  anvil::cli::error("unknown command '" + std::string(name) + "'" + anvil::cli::did_you_mean(name, names) +
                    " (see anvilrt --help)");
  return anvil::cli::kBadInput;
}

}  // namespace

int main(int system_argc, char** system_argv) {
  using namespace anvil::cli;
  anvil::platform::prepare_standard_streams();
  // The arguments in UTF-8 (on Windows read again from the wide command line), as the commands take them.
  std::vector<std::string> arguments = anvil::platform::utf8_arguments(system_argc, system_argv);
  std::vector<char*> pointers;
  for (std::string& a : arguments) pointers.push_back(a.data());
  pointers.push_back(nullptr);
  const int argc = static_cast<int>(arguments.size());
  char** argv = pointers.data();
  if (argc < 2) {
    std::cerr << kUsage;
    return kBadInput;
  }
  std::string_view command = argv[1];
  if (command == "--help" || command == "-h" || (command == "help" && argc == 2)) {
    std::cout << kUsage;
    return kOk;
  }
  if (command == "--version") {
    std::cout << version_text();
    return kOk;
  }
  if (command == "help" && argc == 3 && std::string_view(argv[2]) == "--roff") {
    // Not for users: the build makes the man page's COMMANDS section with it (cmake/man_page.cmake).
    std::cout << man_page_commands(kUsage);
    return kOk;
  }
  if (command == "help") {
    // `anvilrt help CMD` is `anvilrt CMD --help`.
    if (argc > 3) {
      error("unexpected argument '" + std::string(argv[3]) + "' (usage: anvilrt help COMMAND)");
      return kBadInput;
    }
    const Command* c = find(argv[2]);
    if (c == nullptr) return unknown(argv[2]);
    std::string help = "--help";
    char* args[] = {argv[2], help.data(), nullptr};
    return flushed(c->run(2, args));
  }
  if (const Command* c = find(command)) return flushed(c->run(argc - 1, argv + 1));
  return unknown(command);
}
