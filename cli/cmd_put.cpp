// anvilrt put FORGE FILE... (-o OUT | --in-place [--force] | --dry-run) [--as NAME|0xID] [--raw]
//   [--add FILE [--name NAME] [--id 0xID] [--type N]]... [--remove NAME|0xID]...
#include <absl/strings/match.h>
#include <absl/strings/numbers.h>
#include <absl/strings/str_format.h>

#include <charconv>
#include <filesystem>
#include <iostream>
#include <limits>

#include "cli/commands.hpp"
#include "pipeline/forge_put.hpp"
#include "platform/paths.hpp"

namespace anvil::cli {
namespace {

// A number given as 0x… (hex) or decimal, up to `max`.
template <class T>
bool parse_number(const std::string& option, const std::string& text, T& out) {
  const bool hex = absl::StartsWithIgnoreCase(text, "0x");
  const char* begin = text.data() + (hex ? 2 : 0);
  const char* end = text.data() + text.size();
  auto [stop, ec] = std::from_chars(begin, end, out, hex ? 16 : 10);
  if (begin == end || ec != std::errc() || stop != end) {
    error(absl::StrFormat("%s %s: must be a number from 0 to 0x%X (0x for hex)", option, text,
                          std::numeric_limits<T>::max()));
    return false;
  }
  return true;
}

// One of --add FILE, and --name, --id or --type of the --add before it; false when wrong (said).
bool take_add_option(const std::string& option, const std::string& value, std::vector<forge::PutRequest::Add>& added) {
  if (option == "--add") {
    forge::PutRequest::Add a;
    a.path = value;
    added.push_back(std::move(a));
    return true;
  }
  if (added.empty()) {
    error(option + " " + value + ": goes after the --add FILE it names");
    return false;
  }
  forge::PutRequest::Add& a = added.back();
  auto twice = [&] {
    error(option + " is given twice for --add " + a.path);
    return false;
  };
  if (option == "--name") {
    if (a.name) return twice();
    a.name = value;
  } else if (option == "--id") {
    // 64 bits: the archive's version says whether they fit (version 27), when the edit is written
    u64 number = 0;
    if (!parse_number(option, value, number)) return false;
    if (a.file_id) return twice();
    a.file_id = number;
  } else {
    u32 number = 0;
    if (!parse_number(option, value, number)) return false;
    if (a.file_type) return twice();
    a.file_type = number;
  }
  return true;
}

// Takes --add FILE and the --name, --id and --type after each out of the command line into `added`, in
// order, the rest into `rest`; false when one is wrong (said).
bool take_added(int argc, char** argv, std::vector<forge::PutRequest::Add>& added, std::vector<char*>& rest) {
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    std::string value;
    std::string option;
    for (const char* o : {"--add", "--name", "--id", "--type"}) {
      if (arg == o) {
        option = o;
        if (i + 1 >= argc) {
          error(arg +
                ": missing its value (usage: anvilrt put FORGE FILE... (-o OUT | --in-place) [--add FILE "
                "[--name NAME] [--id 0xID] [--type N]]...)");
          return false;
        }
        value = argv[++i];
      } else if (absl::StartsWith(arg, std::string(o) + "=")) {
        option = o;
        value = arg.substr(std::string(o).size() + 1);
      }
      if (!option.empty()) break;
    }
    if (option.empty()) {
      rest.push_back(argv[i]);
      continue;
    }
    if (!take_add_option(option, value, added)) return false;
  }
  return true;
}

// Puts the request's data files into the archive (pipeline/forge_put.hpp), `out` nothing for a dry run, and
// says what changed.
int put_and_report(const std::string& archive_path, const forge::PutRequest& request,
                   const std::optional<std::string>& out, const platform::OutputOptions& output_options,
                   const Common& common) {
  PathErrors path_errors;
  auto input = open_input(archive_path, path_errors);
  if (!input) return kBadInput;
  auto outcome = forge::put(*input, request, out, output_options);
  if (!outcome.ok()) {
    error(std::string(outcome.status().message()));
    return kBadInput;
  }
  // The report goes to standard output, unless the archive does.
  const bool dry_run = !out;
  std::ostream& report = out == "-" && !dry_run ? std::cerr : std::cout;
  if (!common.quiet || dry_run)
    for (const std::string& line : outcome->lines) report << line << "\n";
  if (dry_run) report << "dry run: nothing written\n";
  return kOk;
}

}  // namespace

// `anvilrt put --help`.
constexpr const char* kPutUsage =
    "usage: anvilrt put FORGE FILE... (-o OUT | --in-place [--force] | --dry-run) [--as NAME|0xID] [--raw]\n"
    "         [--add FILE [--name NAME] [--id 0xID] [--type N]]... [--remove NAME|0xID]... [--jobs N]\n"
    "         [-q] [-v]\n\n"
    "Puts data files back into a .forge archive: the way back from `anvilrt extract`. Each FILE,\n"
    "named NAME.data as extract names it (or any name with --as NAME|0xID, for one FILE), replaces\n"
    "the data file NAME. It may have another size and any content that reads as a data file (its\n"
    "entry table parses to its end; --raw stores it as it is). Blocks are kept up to the one holding\n"
    "the first byte that differs and re-compressed from there (docs/design.md, Writing), so a small\n"
    "edit re-compresses little; a data file that no longer fits its place moves to the end of the\n"
    "archive. A FILE equal to what the archive holds changes nothing: putting back an unchanged\n"
    "extraction gives the identical archive, byte for byte. Every other data file, table and padding\n"
    "byte is kept.\n"
    "--add FILE appends a new data file, listed at the end of the last table section (its tables move\n"
    "to the end of the archive when they cannot grow in place); its name, id and type are its first\n"
    "entry's unless --name, --id, --type (after that --add) say otherwise. It is stored like the\n"
    "archive's first compressed data file (algorithm, blocks of its largest block size, the\n"
    "archive's checksum rule), plain when the archive has none. --remove drops a data file's\n"
    "entries; its bytes stay, unreferenced (anvilrt compact drops them).\n"
    "All or nothing: the new archive is written to a temporary file, read back and checked (every\n"
    "untouched data file byte-identical, every new one decompressing to its FILE), then renamed.\n"
    "--dry-run prints, per data file, unchanged, replaced (sizes, blocks re-compressed of all, in\n"
    "place or moved), added or removed, and writes nothing.\n"
    "Exit 0; 2 on bad input (an unknown name, a FILE that is not a data file, ...), with nothing\n"
    "written.";

int run_put(int argc, char** argv) {
  // --add FILE and the --name, --id and --type after it go together, in order: they are taken out of the
  // command line here, and the rest parsed as usual.
  std::vector<forge::PutRequest::Add> added;
  std::vector<char*> rest{argv[0]};
  if (!take_added(argc, argv, added, rest)) return kBadInput;

  std::string archive_path, out, as;
  std::vector<std::string> files, removed;
  po::options_description options("options");
  std::string ignored;
  add_jobs_option(options, "block compression");
  options.add_options()("output,o", po::value(&out),
                        "write the new archive to OUT (atomically; - for standard output)")(
      "in-place", "replace FORGE itself (atomically, keeping its mode)")(
      "force", "replace FORGE even when it is read-only (with --in-place)")(
      "dry-run", "say what would change, per data file, and write nothing")(
      "as", po::value(&as), "the data file (NAME or 0xID) that the one FILE replaces, when not named NAME.data")(
      "raw", "take each FILE (and --add FILE) as decompressed bytes, without reading an entry table")(
      "add", po::value(&ignored), "append FILE as a new data file (at the end of the last table section)")(
      "name", po::value(&ignored), "after --add FILE: its name (default: its first entry's name)")(
      "id", po::value(&ignored), "after --add FILE: its file_id (default: its first entry's)")(
      "type", po::value(&ignored), "after --add FILE: its file_type (default: its first entry's resource_type)")(
      "remove", po::value(&removed), "remove the data file NAME, or every data file with the id 0xID")(
      "archive", po::value(&archive_path)->required(), "the .forge archive")(
      "files", po::value(&files), "decompressed data files, named NAME.data");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(static_cast<int>(rest.size()), rest.data(), kPutUsage, options,
             {{"archive", "FORGE"}, {"files", "FILE", -1}}, common, vm, code))
    return code;
  const bool dry_run = vm.count("dry-run") > 0;
  const bool in_place = vm.count("in-place") > 0;
  const char* usage = " (usage: anvilrt put FORGE FILE... (-o OUT | --in-place | --dry-run))";
  if (!check_output_choice(out, in_place, dry_run, usage)) return kBadInput;
  if (files.empty() && added.empty() && removed.empty()) {
    error(std::string("nothing to put: give a FILE, --add FILE or --remove NAME") + usage);
    return kBadInput;
  }
  if (archive_path == "-") {
    error("FORGE: put reads the archive from a file (standard input is not one)");
    return kBadInput;
  }
  std::error_code same_error;
  const bool onto_input =
      !in_place && !out.empty() && out != "-" &&
      std::filesystem::equivalent(platform::path_of(archive_path), platform::path_of(out), same_error) && !same_error;
  if (vm.count("force") && !in_place && !onto_input) {
    error("--force only goes with --in-place (or -o naming FORGE itself)");
    return kBadInput;
  }
  if (in_place) out = archive_path;

  forge::PutRequest request;
  request.files = files;
  if (vm.count("as")) request.as = as;
  request.raw = vm.count("raw") > 0;
  request.added = std::move(added);
  request.removed = removed;
  const platform::OutputOptions output_options{.in_place = in_place || onto_input, .force = vm.count("force") > 0};
  return put_and_report(archive_path, request, dry_run ? std::nullopt : std::optional<std::string>(out), output_options,
                        common);
}

}  // namespace anvil::cli
