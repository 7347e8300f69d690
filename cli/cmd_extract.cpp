// anvilrt extract FORGE [NAME|0xID ...] -o DIR [--keep-going] [--no-clobber]
#include <absl/strings/str_format.h>

#include <iostream>

#include "cli/archive_input.hpp"
#include "cli/commands.hpp"
#include "model/counted.hpp"
#include "pipeline/forge_extract.hpp"

namespace anvil::cli {

int run_extract(int argc, char** argv) {
  std::string path, dir;
  std::vector<std::string> selectors;
  po::options_description options("options");
  options.add_options()("output,o", po::value(&dir)->required(), "the folder to write to (created if missing)")(
      "keep-going", "write every data file that reads, list the others (exit 2)")(
      "no-clobber", "replace no existing file: one is an error, and nothing is written")(
      "archive", po::value(&path)->required(), "the .forge archive")(
      "select", po::value(&selectors)->multitoken(), "data file names (as ls shows them), file names or 0x ids");
  add_layout_option(options);
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt extract FORGE [NAME|0xID ...] -o DIR [--keep-going] [--no-clobber] [--layout N] [-q] "
             "[-v]\n\n"
             "Writes each selected data file (all when none is named), decompressed, to DIR/FILE.data. NAME is\n"
             "a data file's name as `anvilrt ls` shows it (bytes that are not printable ASCII, and '\\', spelled\n"
             "\\xNN; NAME@0xID for a name an earlier data file has, case ignored), its FILE name, or 0xID (its\n"
             "file_id: every data file that has it). FILE is NAME with / \\ : * ? \" < > | %, each \\xNN, a\n"
             "leading '.' and the last letter of a Windows device name (CON, NUL, COM1...) spelled %NN, so that\n"
             "any file system takes it (docs/data-file-names.md).\n\n"
             "Beside them, DIR/forge.json lists what `anvilrt pack DIR` needs to build an archive of them again:\n"
             "the archive's version and kept header bytes, and per data file in order its name, file, id,\n"
             "type, compression, stored form, block size and kept table bytes, and the checksum rule\n"
             "(docs/forge-json.md). With selectors (or --keep-going and a data file that does not read) it\n"
             "lists only the files written and says \"complete\": false; pack refuses such a folder.\n\n"
             "All or nothing: the files are written in a temporary folder inside DIR and renamed into place at\n"
             "the end; a data file that does not read, or an error or a signal before then, leaves DIR as it\n"
             "was. --keep-going writes every data file that reads and lists the others. Nothing inside DIR is\n"
             "followed: a symbolic link at a file's name is replaced by the file, never written through, and a\n"
             "folder there is refused. DIR itself may be a symbolic link to a folder (you named it).\n"
             "Exit 0; 2 when the archive or a data file does not read, a selector names none, or a file is\n"
             "refused.",
             options, {{"archive", "FORGE"}, {"select", "NAME|0xID", -1}, {"output", "-o DIR", 0}}, common, vm, code))
    return code;
  if (dir == "-" || dir.empty()) {
    error("-o " + dir + ": extract writes files into a folder; name one (standard output takes no files)");
    return kBadInput;
  }
  PathErrors path_errors;
  // The dialect plays no part: data files are written as they decompress.
  auto opened = open_one(path, {.game = "ac2", .selectors = selectors, .archive_only = true}, common, path_errors);
  if (!opened) return kBadInput;
  forge::ExtractOptions extract_options{
      .keep_going = vm.count("keep-going") > 0, .no_clobber = vm.count("no-clobber") > 0, .archive_path = path};
  auto outcome =
      forge::extract(opened->input->bytes(), opened->archive->archive, opened->archive->selected, dir, extract_options);
  if (!outcome.ok()) {
    error(std::string(outcome.status().message()));
    return kBadInput;
  }
  for (const auto& e : outcome->written) std::cout << absl::StrFormat("%s: %s\n", e.path, counted(e.size, "byte"));
  if (!outcome->list_path.empty()) std::cout << outcome->list_path << ": the list anvilrt pack reads\n";
  for (const std::string& failure : outcome->failed) error(failure);
  return outcome->failed.empty() ? kOk : kBadInput;
}

}  // namespace anvil::cli
