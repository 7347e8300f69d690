// anvilrt ls FORGE... [--json] [--objects] [--game ac2|sws|auto] [--jobs N]
// The data files of each archive are summed up in parallel (pipeline/ls_run.hpp) and listed in order.
#include <absl/strings/str_format.h>

#include <filesystem>
#include <iostream>
#include <optional>

#include "cli/archive_input.hpp"
#include "cli/commands.hpp"
#include "model/counted.hpp"
#include "model/dialect.hpp"
#include "model/forge/variant.hpp"
#include "pipeline/ls_json.hpp"
#include "pipeline/ls_run.hpp"
#include "platform/paths.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/forge/summary.hpp"

namespace anvil::cli {
namespace {

// Prints the listing: lines, or one JSON document (an array of them for several; pipeline/ls_json.hpp).
class LsPrinter {
 public:
  LsPrinter(bool json, bool objects, bool several) : objects_(objects), several_(several) {
    if (json) json_.emplace(std::cout, several, objects);
  }

  // An archive that cannot be listed: said on stderr (by the caller), and an entry of the JSON array.
  void unlisted(const std::string& path, const std::string& reason) {
    if (json_) json_->unlisted(path, reason);
  }

  void head(const std::string& path, const forge::Archive& archive) {
    if (json_)
      json_->head(path, archive);
    else if (several_)
      std::cout << (listed_ > 0 ? "\n" : "") << path << ":\n";
    ++listed_;
  }

  // False when the data file does not read (said on stderr).
  bool data_file(const std::string& path, const forge::Archive& archive, const std::vector<std::string>& names,
                 std::size_t i, const forge::ListedSummary& s) {
    if (!s.ok()) error(path + ": " + std::string(s.status().message()));
    if (json_)
      json_->data_file(archive, names, i, s);
    else if (s.ok())
      data_file_line(archive, names, *s);
    return s.ok();
  }

  void tail(const forge::Archive& archive, const forge::ArchiveChecksums& checksums) {
    if (json_)
      json_->tail(checksums);
    else
      std::cout << absl::StrFormat("%s, archive version %d, checksum rule of the archive: %s\n",
                                   counted(archive.files.size(), "data file"), archive.header.version,
                                   checksums.describe());
  }

  void end() {
    if (json_) json_->end();
    std::cout.flush();
  }

 private:
  void data_file_line(const forge::Archive& archive, const std::vector<std::string>& names,
                      const forge::DataFileSummary& s) const {
    std::cout << absl::StrFormat("%4d  %s  %-32s  type 0x%08x  stored %d  decompressed %d  %s  checksum %s  layout %d",
                                 s.index, forge::format_id(s.file_id, archive.variant()), names[s.index], s.file_type,
                                 s.stored_size, s.decompressed_size, forge::compression_name(s.compression), s.rule,
                                 archive.variant().layout);
    if (objects_) {
      std::cout << absl::StrFormat("  entries %d  objects", s.entries);
      if (s.objects.empty()) std::cout << " none";
      for (const auto& [name, n] : s.objects) std::cout << absl::StrFormat(" %s=%d", name, n);
    }
    std::cout << "\n";
  }

  bool objects_, several_;
  std::size_t listed_ = 0;
  std::optional<forge::LsJson> json_;
};

// Lists one archive; false when it, or one of its data files, does not read.
bool list_archive(const std::string& path, const std::string& game_option, bool objects, const Common& common,
                  LsPrinter& printer, PathErrors& path_errors) {
  // Only --objects carves: without it the dialect is not looked for.
  OpenedInput o = open_path({path, true},
                            {.game = objects ? game_option : "ac2", .announce = objects, .archive_only = true}, common);
  if (!o.input) {
    path_errors.failed(path, o.open);
    std::error_code ec;
    printer.unlisted(path, std::filesystem::exists(platform::path_of(path), ec) ? std::string(o.open.message())
                                                                                : "no such file or folder");
    return true;  // counted by path_errors
  }
  if (o.tables_failed) {
    printer.unlisted(path, o.failure);
    return false;
  }
  const forge::Archive& archive = o.archive->archive;
  printer.head(path, archive);
  bool all_read = true;
  const forge::ArchiveChecksums& checksums = forge::list_data_files(
      *o.input, archive, {objects, o.archive->game}, [&](std::size_t i, forge::ListedSummary& s) {
        all_read = printer.data_file(path, archive, o.names, i, s) && all_read;
      });
  printer.tail(archive, checksums);
  return all_read;
}

// `anvilrt ls --help`: the versions and compressions it names are the table's (model/forge/variant_table.hpp).
std::string ls_usage() {
  const u32 wide_ids = forge::variant_table::first_version(&forge::VersionRow::wide_ids);
  const u32 no_header = forge::variant_table::first_version(&forge::VersionRow::file_header, false);
  return absl::StrFormat(
      "usage: anvilrt ls FORGE... [--json] [--objects] [--game GAMES|auto] [--jobs N] [-q] [-v]\n\n"
      "One line per data file of a .forge archive (version %s): index, file_id, name, file_type,\n"
      "stored size, decompressed size, compression (%s) and the archive's\n"
      "checksum rule its blocks are checked by (n/a without checksums). Then that rule: the candidate\n"
      "(adler32-0|1 over the stored or the decompressed bytes) most checksummed blocks of the archive\n"
      "match, when more than half do, with its count; none otherwise (no block checked). A data file\n"
      "holding a block the rule does not match is damaged: one error line naming the block, no row. Read\n"
      "from the block tables and the stored blocks' checksums (decompressed only when no rule over the\n"
      "stored bytes wins): quick on any archive. With --objects every block is decompressed (as\n"
      "`anvilrt verify` does), and the objects are carved in the dialect of --game (auto: the one that\n"
      "carves more of the first data file whose bodies carve anything).\n"
      "A name is printed with bytes outside printable ASCII, and \\, as \\xNN (as verify and dump spell it),\n"
      "and as NAME@0xID when an earlier data file has it (case ignored): the name every command takes\n"
      "(docs/data-file-names.md).\n"
      "Several archives: each listed after a line \"FORGE:\"; with --json, an array of their documents.\n"
      "A folder (a game folder, docs/game-folders.md) stands for the .forge archives directly in it, an\n"
      "interrupted change there finished or rolled back first (said on stderr).\n"
      "--json: {\"archive\", \"version\", \"datafiles\": [...], \"checksum_rule\"}; each data file has its\n"
      "index, file_id (8 hex digits, 16 in archive version %d), name, file_type, offset (its index entry's:\n"
      "the archive offset of its 440-byte header; version %d has none, and it is that of its stored bytes),\n"
      "stored_offset (of its stored bytes, right after that header), size (of its stored bytes), layout,\n"
      "and either decompressed_size, compression, checksum_rule (and with --objects entries, objects) or,\n"
      "when it does not read, \"error\" (also said on stderr).\n"
      "Exit 0; 2 when an archive or a data file does not read.",
      forge::known_versions(), forge::known_compression_names(), wide_ids, no_header);
}

}  // namespace

int run_ls(int argc, char** argv) {
  std::vector<std::string> paths;
  std::string game_option;
  po::options_description options("options");
  add_game_option(options, game_option);
  add_jobs_option(options, "data files read at once");
  options.add_options()("json", "one JSON document instead of lines")(
      "objects", "also carve each data file's entry bodies and count the objects of each class")(
      "archives", po::value(&paths)->required()->multitoken(),
      "the .forge archives (a folder: the archives directly in it)");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv, ls_usage().c_str(), options, {{"archives", "FORGE", -1}}, common, vm, code)) return code;
  if (!check_game_option(game_option)) return kBadInput;
  const forge::ArchivePaths archives = forge::archive_paths(paths);
  for (const std::string& line : archives.said) std::cerr << "anvilrt: " << line << "\n";
  if (archives.folders_failed && archives.paths.empty()) return kBadInput;
  const bool objects = vm.count("objects") > 0;
  LsPrinter printer(vm.count("json") > 0, objects, archives.paths.size() > 1);
  PathErrors path_errors;
  bool all_read = true;
  for (const std::string& path : archives.paths)
    all_read = list_archive(path, game_option, objects, common, printer, path_errors) && all_read;
  printer.end();
  return !all_read || archives.folders_failed || path_errors.any() ? kBadInput : kOk;
}

}  // namespace anvil::cli
