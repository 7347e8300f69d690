// anvilrt ls FORGE [--json] [--objects] [--game ac2|sws] [--jobs N]
// The data files are summed up in parallel on all cores (cli/parallel.hpp) and listed in order.
#include <absl/strings/str_format.h>
#include <rapidjson/ostreamwrapper.h>
#include <rapidjson/prettywriter.h>

#include <iostream>
#include <thread>

#include "cli/archive_input.hpp"
#include "cli/commands.hpp"
#include "cli/parallel.hpp"
#include "model/dialect.hpp"
#include "reader/forge/summary.hpp"

namespace anvil::cli {

int run_ls(int argc, char** argv) {
  std::string path, game_option, jobs_text;
  po::options_description options("options");
  options.add_options()("json", "one JSON document instead of lines")(
      "objects", "also carve each data file's entry bodies and count the objects of each class")(
      "game", po::value(&game_option)->default_value("ac2"),
      ("the dialect objects are carved in: " + dialect::game_list()).c_str())(
      "jobs,j", po::value(&jobs_text), "data files read at once (default: one per core)")(
      "archive", po::value(&path)->required(), "the .forge archive");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt ls FORGE [--json] [--objects] [--game GAMES] [--jobs N] [-q] [-v]\n\n"
             "One line per data file of a .forge archive: index, file_id, name (the one every command takes;\n"
             "bytes that are not printable ASCII as \\xNN: docs/data-file-names.md), file_type, stored size,\n"
             "decompressed size, compression (lzo1x, lzo2a, lzo1c, plain) and the checksum rule found on its\n"
             "first checksummed block (adler32-0|1 over the stored or the decompressed bytes; none; n/a without\n"
             "checksums). Then the rule all those blocks share. Read from the block tables and that one block\n"
             "(decompressed only when no rule over its stored bytes holds): quick on any archive. With --objects every "
             "block is decompressed and its checksum checked (as\n"
             "`anvilrt verify` does). Exit 0; 2 when the archive or a data file does not read.",
             options, {{"archive", "FORGE"}}, common, vm, code))
    return code;
  if (!parse_game(game_option)) {
    error("--game must be " + dialect::game_list() + ", not '" + game_option + "'");
    return kBadInput;
  }
  u64 jobs = std::max(1u, std::thread::hardware_concurrency());
  if (vm.count("jobs") && !parse_count("--jobs", jobs_text, 1, jobs)) return kBadInput;
  PathErrors path_errors;
  auto input = open_input(path, path_errors);
  if (!input) return kBadInput;
  auto opened = open_archive(*input, path, game_option, {}, common.quiet);
  if (!opened) return kBadInput;
  const forge::Archive& archive = opened->archive;
  // The names every command takes (model/forge/archive.hpp), already printable ASCII.
  const std::vector<std::string> names = forge::data_file_names(archive);
  const bool json = vm.count("json") > 0, objects = vm.count("objects") > 0;
  rapidjson::OStreamWrapper stream(std::cout);
  rapidjson::PrettyWriter<rapidjson::OStreamWrapper> out(stream);
  if (json) {
    out.StartObject();
    out.Key("archive");
    out.String(path);
    out.Key("datafiles");
    out.StartArray();
  }
  forge::ChecksumRules rules = forge::kAllRules;
  std::size_t blocks = 0, failed = 0;
  using Summary = absl::StatusOr<forge::DataFileSummary>;
  auto summarize = [&](std::size_t i) { return forge::summarize(input->bytes(), archive, i, objects, opened->game); };
  auto list = [&](std::size_t, Summary& s) {
    if (!s.ok()) {
      error(path + ": " + std::string(s.status().message()));
      ++failed;
      return;
    }
    rules &= s->checked_blocks ? s->rules : forge::kAllRules;
    blocks += s->checked_blocks;
    std::string id = absl::StrFormat("0x%08x", s->file_id), type = absl::StrFormat("0x%08x", s->file_type);
    if (json) {
      out.StartObject();
      out.Key("index");
      out.Uint64(s->index);
      out.Key("file_id");
      out.String(id);
      out.Key("name");
      out.String(names[s->index]);
      out.Key("file_type");
      out.String(type);
      out.Key("stored_size");
      out.Uint64(s->stored_size);
      out.Key("decompressed_size");
      out.Uint64(s->decompressed_size);
      out.Key("compression");
      out.String(std::string(forge::compression_name(s->compression)));
      out.Key("checksum_rule");
      out.String(s->rule());
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
      std::cout << absl::StrFormat("%4d  %s  %-32s  type %s  stored %d  decompressed %d  %s  checksum %s", s->index, id,
                                   names[s->index], type, s->stored_size, s->decompressed_size,
                                   forge::compression_name(s->compression), s->rule());
      if (objects) {
        std::cout << absl::StrFormat("  entries %d  objects", s->entries);
        if (s->objects.empty()) std::cout << " none";
        for (const auto& [name, n] : s->objects) std::cout << absl::StrFormat(" %s=%d", name, n);
      }
      std::cout << "\n";
    }
  };
  run_in_order<Summary>(archive.files.size(), static_cast<unsigned>(std::min<u64>(jobs, 1024)), summarize, list);
  std::string rule = forge::describe_rules(rules, blocks);
  if (json) {
    out.EndArray();
    out.Key("checksum_rule");
    out.String(rule);
    out.EndObject();
    std::cout << "\n";
  } else {
    std::cout << absl::StrFormat("%d data files, checksum rule of the archive: %s\n", archive.files.size(), rule);
  }
  return failed > 0 ? kBadInput : kOk;
}

}  // namespace anvil::cli
