// anvilrt ls FORGE... [--json] [--objects] [--game ac2|sws|auto] [--jobs N]
// The data files of each archive are summed up in parallel (pipeline/ls_run.hpp) and listed in order.
#include <absl/strings/str_format.h>
#include <rapidjson/encodings.h>
#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <filesystem>
#include <iostream>
#include <optional>

#include "cli/archive_input.hpp"
#include "cli/commands.hpp"
#include "model/counted.hpp"
#include "model/dialect.hpp"
#include "pipeline/ls_run.hpp"
#include "platform/paths.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/forge/summary.hpp"

namespace anvil::cli {
namespace {

using LsJson = rapidjson::PrettyWriter<rapidjson::OStreamWrapper>;

// A path as a JSON string: as given when it is UTF-8, else in the spelling of data-file names (bytes
// that are not text cannot go into JSON as they are).
std::string ls_json_path(const std::string& path) {
  rapidjson::StringStream in(path.c_str());
  rapidjson::StringBuffer ignored;
  while (in.Tell() < path.size())
    if (!rapidjson::UTF8<>::Validate(in, ignored)) return forge::printable_name(path);
  return path;
}

// What ls shows of a data file before reading its blocks: from the tables alone. Its name is the one every
// command takes (data_file_names), spelled by printable_name, so that a control character in an archive
// never reaches the terminal.
void ls_table_members(LsJson& out, const forge::Archive& archive, const std::vector<std::string>& names,
                      std::size_t i) {
  const forge::DataFileAt& f = archive.files[i];
  out.Key("index");
  out.Uint64(i);
  out.Key("file_id");
  out.String(forge::format_id(f.index.file_id.value, archive.variant()));
  out.Key("name");
  out.String(names[i]);
  out.Key("file_type");
  out.String(absl::StrFormat("0x%08x", f.name.file_type));
  out.Key("header_offset");
  out.Uint64(f.index.offset);
  out.Key("stored_offset");
  out.Uint64(f.stored_offset());
  out.Key("stored_size");
  out.Uint64(f.index.size);
  out.Key("layout");  // the data-file layout (FORGE.md 7)
  out.Uint64(archive.variant().layout);
}

// Prints the listing: lines, or one JSON document (an array of them for several archives).
class LsPrinter {
 public:
  LsPrinter(bool json, bool objects, bool several)
      : json_(json), objects_(objects), several_(several), stream_(std::cout), out_(stream_) {
    if (json_ && several_) out_.StartArray();
  }

  // An archive that cannot be listed: said on stderr (by the caller), and an entry of the JSON array.
  void unlisted(const std::string& path, const std::string& reason) {
    if (!json_ || !several_) return;
    out_.StartObject();
    out_.Key("archive");
    out_.String(ls_json_path(path));
    out_.Key("error");
    out_.String(reason);
    out_.EndObject();
  }

  void head(const std::string& path, const forge::Archive& archive) {
    if (json_) {
      out_.StartObject();
      out_.Key("archive");
      out_.String(ls_json_path(path));
      out_.Key("version");
      out_.Uint64(archive.header.version);
      out_.Key("datafiles");
      out_.StartArray();
    } else if (several_) {
      std::cout << (listed_ > 0 ? "\n" : "") << path << ":\n";
    }
    ++listed_;
  }

  // False when the data file does not read (said on stderr).
  bool data_file(const std::string& path, const forge::Archive& archive, const std::vector<std::string>& names,
                 std::size_t i, const forge::ListedSummary& s) {
    if (!s.ok()) {
      error(path + ": " + std::string(s.status().message()));
      if (json_) {
        out_.StartObject();
        ls_table_members(out_, archive, names, i);
        out_.Key("error");
        out_.String(std::string(s.status().message()));
        out_.EndObject();
      }
      return false;
    }
    if (json_)
      data_file_json(archive, names, i, *s);
    else
      data_file_line(archive, names, *s);
    return true;
  }

  void tail(const forge::Archive& archive, const forge::ArchiveChecksums& checksums) {
    if (json_) {
      out_.EndArray();
      out_.Key("checksum_rule");
      out_.String(checksums.verdict.name());
      out_.Key("checksum_blocks_matched");
      out_.Uint64(checksums.verdict.matched);
      out_.Key("checksum_blocks");
      out_.Uint64(checksums.verdict.blocks);
      out_.EndObject();
    } else {
      std::cout << absl::StrFormat("%s, archive version %d, checksum rule of the archive: %s\n",
                                   counted(archive.files.size(), "data file"), archive.header.version,
                                   checksums.describe());
    }
  }

  void end() {
    if (json_ && several_) out_.EndArray();
    if (json_ && (several_ || out_.IsComplete())) std::cout << "\n";
    std::cout.flush();
  }

 private:
  void data_file_json(const forge::Archive& archive, const std::vector<std::string>& names, std::size_t i,
                      const forge::DataFileSummary& s) {
    out_.StartObject();
    ls_table_members(out_, archive, names, i);
    out_.Key("decompressed_size");
    out_.Uint64(s.decompressed_size);
    out_.Key("compression");
    out_.String(std::string(forge::compression_name(s.compression)));
    out_.Key("checksum_rule");
    out_.String(s.rule);
    if (objects_) {
      out_.Key("entries");
      out_.Uint64(s.entries);
      out_.Key("objects");
      out_.StartObject();
      for (const auto& [name, n] : s.objects) {
        out_.Key(name);
        out_.Uint64(n);
      }
      out_.EndObject();
    }
    out_.EndObject();
  }

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

  bool json_, objects_, several_;
  std::size_t listed_ = 0;
  rapidjson::OStreamWrapper stream_;
  LsJson out_;
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
  const forge::ArchiveChecksums checksums = forge::list_data_files(
      *o.input, archive, {objects, o.archive->game}, [&](std::size_t i, forge::ListedSummary& s) {
        all_read = printer.data_file(path, archive, o.names, i, s) && all_read;
      });
  printer.tail(archive, checksums);
  return all_read;
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
  if (!parse(argc, argv,
             "usage: anvilrt ls FORGE... [--json] [--objects] [--game GAMES|auto] [--jobs N] [-q] [-v]\n\n"
             "One line per data file of a .forge archive (version 25, 26 or 27): index, file_id, name, file_type,\n"
             "stored size,\n"
             "decompressed size, compression (lzo1x, lzo2a, lzo1c, plain) and the archive's checksum rule its\n"
             "blocks are checked by (n/a without checksums). Then that rule: the candidate (adler32-0|1 over the\n"
             "stored or the decompressed bytes) most checksummed blocks of the archive match, when more than\n"
             "half do, with its count; none otherwise (no block checked). A data file holding a block the rule\n"
             "does not match is damaged: one error line naming the block, no row. Read from the block tables\n"
             "and the stored blocks' checksums (decompressed only when no rule over the stored bytes wins):\n"
             "quick on any archive. With --objects every block is decompressed (as `anvilrt verify` does), and\n"
             "the objects are carved in the dialect of --game (auto: the one that carves more of the first data file\n"
             "whose bodies carve anything).\n"
             "A name is printed with bytes outside printable ASCII, and \\, as \\xNN (as verify and dump spell it),\n"
             "and as NAME@0xID when an earlier data file has it (case ignored): the name every command takes\n"
             "(docs/data-file-names.md).\n"
             "Several archives: each listed after a line \"FORGE:\"; with --json, an array of their documents.\n"
             "A folder (a game folder, docs/game-folders.md) stands for the .forge archives directly in it, an\n"
             "interrupted change there finished or rolled back first (said on stderr).\n"
             "--json: {\"archive\", \"version\", \"datafiles\": [...], \"checksum_rule\"}; each data file has its\n"
             "index, file_id (8 hex digits, 16 in archive version 27), name, file_type, header_offset (the archive\n"
             "offset of its 440-byte header; version 27 has none), stored_offset (of its stored bytes, right after\n"
             "that header), stored_size, and either\n"
             "decompressed_size, compression, checksum_rule (and with --objects entries, objects) or, when it\n"
             "does not read, \"error\" (also said on stderr).\n"
             "Exit 0; 2 when an archive or a data file does not read.",
             options, {{"archives", "FORGE", -1}}, common, vm, code))
    return code;
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
