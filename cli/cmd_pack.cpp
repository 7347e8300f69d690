// anvilrt pack DIR -o OUT.forge [-q] [-v]
#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>

#include <iostream>

#include "cli/commands.hpp"
#include "model/counted.hpp"
#include "model/forge/variant.hpp"
#include "pipeline/forge_pack.hpp"

namespace anvil::cli {

int run_pack(int argc, char** argv) {
  std::string dir, out;
  po::options_description options("options");
  add_jobs_option(options, "block compression");
  options.add_options()("output,o", po::value(&out)->required(),
                        "the archive to write (atomically; - for standard output)")(
      "folder", po::value(&dir)->required(), "the folder extract wrote");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv,
             absl::StrCat(
                 "usage: anvilrt pack DIR -o OUT.forge [--jobs N] [-q] [-v]\n\n"
                 "Builds a new .forge archive from a folder that `anvilrt extract` wrote: DIR/forge.json (the list\n"
                 "extract writes beside the data files, docs/forge-json.md) and each data file it lists, in its\n"
                 "order, with its id, names, type and kept table bytes. Each data file (DIR/FILE.data, edited or\n"
                 "not, of any size) is compressed again as listed: its algorithm (",
                 forge::compressed_names(),
                 " at -999) and\n"
                 "stored form (two block sets, one chunk stream, a block set then chunks, or plain), cut into\n"
                 "blocks of the listed block size, a block stored plain where LZO does not make it smaller; the\n"
                 "checksums by the archive's rule (adler32-0/stored when forge.json says none or n/a: said on\n"
                 "stderr). The archive is laid out from scratch: tables first, then the data files aligned as\n"
                 "listed, nothing unreferenced.\n\n"
                 "The result reads back to the same data files (decompressed bytes, and so their entry tables),\n"
                 "but it is a new archive, not the original's bytes: the games' compressor settings are unknown.\n"
                 "`anvilrt put` is the byte-exact way back into an existing archive.\n\n"
                 "All or nothing: written to a temporary file beside OUT, read back and checked (every data file\n"
                 "decompresses to its file's bytes, every id, name and type as listed), then renamed over OUT.\n"
                 "DIR must hold forge.json and exactly the files it lists: a listed file missing, a file it does\n"
                 "not list, a forge.json that lists only some of the archive (\"complete\": false, extract given\n"
                 "selectors) or a field out of range is one line naming the file and field, and nothing is written.\n"
                 "Exit 0; 2 on bad input.")
                 .c_str(),
             options, {{"folder", "DIR"}, {"output", "-o OUT", 0}}, common, vm, code))
    return code;
  auto report = forge::pack_folder(dir, out);
  if (!report.ok()) {
    error(std::string(report.status().message()));
    return kBadInput;
  }
  if (report->rule_chosen)
    std::cerr << absl::StrFormat(
        "anvilrt: %s/forge.json: the archive's checksum rule was none or n/a: checksums written by %s\n", dir,
        report->checksum_rule);
  if (!common.quiet && out != "-")
    std::cout << absl::StrFormat(
        "%s: %s, %s, checksums %s; a new archive that reads back to the same data files, "
        "not byte-identical to the original (anvilrt put is the byte-exact path)\n",
        out, counted(report->datafiles, "data file"), counted(report->size, "byte"), report->checksum_rule);
  return kOk;
}

}  // namespace anvil::cli
