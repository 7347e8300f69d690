// anvilrt ls FORGE... [--json] [--objects] [--game ac2|sws|auto] [--jobs N]
// The data files of each archive are summed up in parallel on all cores (model/parallel.hpp) and listed in
// order.
#include <absl/strings/str_format.h>
#include <rapidjson/encodings.h>
#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <filesystem>
#include <iostream>
#include <optional>
#include <thread>

#include "cli/archive_input.hpp"
#include "cli/commands.hpp"
#include "model/counted.hpp"
#include "model/dialect.hpp"
#include "model/parallel.hpp"
#include "pipeline/game_folder.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/forge/summary.hpp"
#include "platform/paths.hpp"

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
  const u64 jobs = thread_budget();
  // A game folder stands for its archives (pipeline/game_folder.hpp), an interrupted change there finished
  // or rolled back first.
  std::vector<std::string> named = std::move(paths);
  paths.clear();
  bool folders_failed = false;
  for (const std::string& path : named) {
    if (!folder::is_folder(path)) {
      paths.push_back(path);
      continue;
    }
    auto opened = folder::open_game_folder(path);
    if (!opened.ok()) {
      error(std::string(opened.status().message()));
      folders_failed = true;
      continue;
    }
    for (const std::string& line : opened->recovered) std::cerr << "anvilrt: " << line << "\n";
    for (std::size_t i = 0; i < opened->archives.size(); ++i) paths.push_back(opened->path(i));
  }
  if (folders_failed && paths.empty()) return kBadInput;
  const bool json = vm.count("json") > 0, objects = vm.count("objects") > 0, several = paths.size() > 1;
  rapidjson::OStreamWrapper stream(std::cout);
  LsJson out(stream);
  if (json && several) out.StartArray();
  PathErrors path_errors;
  std::size_t failed = 0;  // archives that do not read, and data files
  std::size_t listed = 0;
  // An archive that cannot be listed: said on stderr, and an entry of the JSON array.
  auto unlisted = [&](const std::string& path, const std::string& reason) {
    if (!json || !several) return;
    out.StartObject();
    out.Key("archive");
    out.String(ls_json_path(path));
    out.Key("error");
    out.String(reason);
    out.EndObject();
  };
  for (const std::string& path : paths) {
    // Only --objects carves: without it the dialect is not looked for.
    OpenedInput o = open_path(
        {path, true}, {.game = objects ? game_option : "ac2", .announce = objects, .archive_only = true}, common);
    if (!o.input) {
      path_errors.failed(path, o.open);
      std::error_code ec;
      unlisted(path, std::filesystem::exists(platform::path_of(path), ec) ? std::string(o.open.message()) : "no such file or folder");
      continue;
    }
    if (o.tables_failed) {
      ++failed;
      unlisted(path, o.failure);
      continue;
    }
    const InputFile* input = &*o.input;
    const forge::Archive& archive = o.archive->archive;
    const std::vector<std::string>& names = o.names;
    const Game game = o.archive->game;
    if (json) {
      out.StartObject();
      out.Key("archive");
      out.String(ls_json_path(path));
      out.Key("version");
      out.Uint64(archive.header.version);
      out.Key("datafiles");
      out.StartArray();
    } else if (several) {
      std::cout << (listed > 0 ? "\n" : "") << path << ":\n";
    }
    ++listed;
    using Summary = absl::StatusOr<forge::DataFileSummary>;
    const unsigned threads = static_cast<unsigned>(std::min<u64>(jobs, 1024));
    // The vote reads every stored byte, on all the command's cores. Without --objects the tables are read
    // in the same pass, right after each data file votes, and its pages are dropped then: each is read
    // once, and the archive is never mapped whole.
    std::vector<std::optional<Summary>> tables(objects ? 0 : archive.files.size());
    const forge::ArchiveChecksums checksums =
        objects ? forge::archive_checksums(input->bytes(), archive, {}, threads)
                : forge::archive_checksums_then(
                      input->bytes(), archive,
                      [&](std::size_t i) {
                        tables[i] = forge::summarize_tables(input->bytes(), archive, i);
                        input->release(archive.files[i].index.offset,
                                       archive.files[i].end() - archive.files[i].index.offset);
                      },
                      threads);
    auto summarize = [&](std::size_t i) -> Summary {
      if (objects) return forge::summarize(input->bytes(), archive, i, true, game, checksums);
      if (!tables[i]->ok()) return tables[i]->status();
      return forge::judged(std::move(**tables[i]), input->bytes(), archive, checksums);
    };
    auto list = [&](std::size_t i, Summary& s) {
      if (!s.ok()) {
        error(path + ": " + std::string(s.status().message()));
        ++failed;
        if (json) {
          out.StartObject();
          ls_table_members(out, archive, names, i);
          out.Key("error");
          out.String(std::string(s.status().message()));
          out.EndObject();
        }
        return;
      }
      if (json) {
        out.StartObject();
        ls_table_members(out, archive, names, i);
        out.Key("decompressed_size");
        out.Uint64(s->decompressed_size);
        out.Key("compression");
        out.String(std::string(forge::compression_name(s->compression)));
        out.Key("checksum_rule");
        out.String(s->rule);
        if (objects) {
          out.Key("entries");
          out.Uint64(s->entries);
          out.Key("objects");
          out.StartObject();
          for (const auto& [name, n] : s->objects) {
            out.Key(name);
            out.Uint64(n);
          }
          out.EndObject();
        }
        out.EndObject();
      } else {
        std::cout << absl::StrFormat(
            "%4d  %s  %-32s  type 0x%08x  stored %d  decompressed %d  %s  checksum %s  layout %d", s->index,
            forge::format_id(s->file_id, archive.variant()), names[s->index], s->file_type, s->stored_size,
            s->decompressed_size, forge::compression_name(s->compression), s->rule, archive.variant().layout);
        if (objects) {
          std::cout << absl::StrFormat("  entries %d  objects", s->entries);
          if (s->objects.empty()) std::cout << " none";
          for (const auto& [name, n] : s->objects) std::cout << absl::StrFormat(" %s=%d", name, n);
        }
        std::cout << "\n";
      }
    };
    for_each_index_in_order<Summary>(archive.files.size(), threads, summarize, list);
    if (json) {
      out.EndArray();
      out.Key("checksum_rule");
      out.String(checksums.verdict.name());
      out.Key("checksum_blocks_matched");
      out.Uint64(checksums.verdict.matched);
      out.Key("checksum_blocks");
      out.Uint64(checksums.verdict.blocks);
      out.EndObject();
    } else {
      std::cout << absl::StrFormat("%s, archive version %d, checksum rule of the archive: %s\n",
                                   counted(archive.files.size(), "data file"), archive.header.version,
                                   checksums.describe());
    }
  }
  if (json && several) out.EndArray();
  if (json && (several || out.IsComplete())) std::cout << "\n";
  std::cout.flush();
  return failed > 0 || folders_failed || path_errors.any() ? kBadInput : kOk;
}

}  // namespace anvil::cli
