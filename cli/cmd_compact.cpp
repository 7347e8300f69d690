// anvilrt compact FORGE (-o OUT | --in-place [--force]) [--align N] [-q] [-v]
#include <absl/strings/str_format.h>

#include <filesystem>
#include <iostream>

#include "cli/commands.hpp"
#include "model/counted.hpp"
#include "pipeline/forge_pack.hpp"

namespace anvil::cli {

int run_compact(int argc, char** argv) {
  std::string path, out, align_text;
  po::options_description options("options");
  add_jobs_option(options, "block compression");
  options.add_options()("output,o", po::value(&out), "the archive to write (atomically; - for standard output)")(
      "in-place", "replace FORGE itself (atomically)")("force", "with --in-place: replace a read-only FORGE")(
      "align", po::value(&align_text),
      "the alignment of each data file's 440-byte header: a power of two (default: the archive's)")(
      "archive", po::value(&path)->required(), "the .forge archive");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt compact FORGE (-o OUT | --in-place [--force]) [--align N] [--jobs N] [-q] [-v]\n\n"
             "Rewrites a .forge archive without unreferenced bytes (what moves and removals leave behind,\n"
             "and padding): the header, the file-data header and the table sections with every field they\n"
             "keep, then each data file in table order, its 440-byte header and stored bytes byte for byte\n"
             "(nothing is decompressed or re-compressed: a damaged data file stays as it is). Only offsets\n"
             "change. Between data files only the padding (zero bytes) their alignment needs: by default the\n"
             "archive's own (the largest power of two up to 65536 that divides every data file's header\n"
             "offset), or --align N (1: none at all).\n\n"
             "All or nothing: written to a temporary file beside OUT, read back and checked (the same tables\n"
             "but offsets, the same stored bytes, and no unreferenced byte but that padding), then renamed\n"
             "over OUT (--in-place: over FORGE). Exit 0; 2 on bad input.",
             options, {{"archive", "FORGE"}}, common, vm, code))
    return code;
  const char* usage = " (usage: anvilrt compact FORGE (-o OUT | --in-place))";
  const bool in_place = vm.count("in-place") > 0;
  if (in_place == !out.empty()) {
    error(std::string(in_place ? "give either -o OUT or --in-place, not both" : "missing -o OUT or --in-place") +
          usage);
    return kBadInput;
  }
  if (vm.count("force") && !in_place) {
    error("--force only goes with --in-place");
    return kBadInput;
  }
  std::optional<u64> alignment;
  if (vm.count("align")) {
    u64 n = 0;
    if (!parse_count("--align", align_text, 1, n)) return kBadInput;
    if ((n & (n - 1)) != 0 || n > (u64{1} << 30)) {
      error(absl::StrFormat("--align %s: must be a power of two up to 2^30", align_text));
      return kBadInput;
    }
    alignment = n;
  }
  if (in_place) out = path;
  PathErrors path_errors;
  auto input = open_input(path, path_errors);
  if (!input) return kBadInput;
  const platform::OutputOptions output_options{.in_place = in_place, .force = vm.count("force") > 0};
  auto report = forge::compact_file(*input, out, output_options, alignment);
  if (!report.ok()) {
    error(std::string(report.status().message()));
    return kBadInput;
  }
  if (!common.quiet && out != "-")
    std::cout << absl::StrFormat("%s: %s, %s (was %d), no unreferenced byte; aligned to %d\n", out,
                                 counted(report->datafiles, "data file"), counted(report->after, "byte"),
                                 report->before, report->alignment);
  return kOk;
}

}  // namespace anvil::cli
