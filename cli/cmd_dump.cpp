// anvilrt dump FILE [NAME|0xID...] [--game ac2|sws|auto] [--full] [-o OUT] [-q] [-v]
#include <cerrno>
#include <cstdio>
#include <cstring>

#include "cli/archive_input.hpp"
#include "cli/commands.hpp"
#include "cli/progress_bar.hpp"
#include "pipeline/dump.hpp"
#include "reader/forge/archive_levels.hpp"
#include "platform/replace_file.hpp"

namespace anvil::cli {

int run_dump(int argc, char** argv) {
  std::string file, out, game_option;
  std::vector<std::string> selectors;
  po::options_description options("options");
  add_game_option(options, game_option);
  options.add_options()("full", "add \"spans\": every opaque span (base64) and object in file order, as build needs")(
      "output,o", po::value(&out), "write to OUT (atomically; - is standard output) instead of standard output")(
      "file", po::value(&file)->required(),
      "a level file, a decompressed data file or a .forge archive (- for standard input)")(
      "select", po::value(&selectors)->multitoken(),
      "archive: the data files to dump (NAME as ls shows it, its file name, or 0xID: "
      "docs/data-file-names.md; default all)");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt dump FILE [NAME|0xID...] [--game GAMES|auto] [--full] [-o OUT] [-q] [-v]\n\n"
             "The JSON document of a level file or a decompressed data file (docs/patches.md section 2; its\n"
             "fields: docs/format.md). Of a .forge archive: {\"format\", \"game\", \"datafiles\": {NAME:\n"
             "{\"size\", \"objects\"}}}, one member per data file (those named, or all), the document a patch\n"
             "of the archive addresses (docs/patches.md section 5).",
             options, {{"file", "FILE"}, {"select", "NAME|0xID", -1}}, common, vm, code))
    return code;
  if (!check_game_option(game_option)) return kBadInput;
  const bool full = vm.count("full") > 0;

  PathErrors path_errors;
  // --full of an archive is refused before its data files are looked at for the dialect.
  auto opened = open_one(file, {.game = full ? "ac2" : game_option, .selectors = selectors, .announce = true}, common,
                         path_errors);
  if (!opened) return kBadInput;
  const InputFile* input = &*opened->input;
  const Source& source = opened->source;
  std::optional<forge::ArchiveLevels> levels;
  DumpOptions dump;
  if (opened->archive) {
    if (full) {
      error(file +
            ": --full is for level and data files (it is what build reads): extract the data file first "
            "(anvilrt extract) and dump that");
      return kBadInput;
    }
    const ArchiveInput& archive = *opened->archive;
    levels.emplace(input->bytes(), archive.archive, archive.game, archive.selected);
  } else {
    if (!selectors.empty()) {
      error(file + ": NAME and 0xID select data files of a .forge archive, and this is a " +
            std::string(source_kind_name(source.kind)));
      return kBadInput;
    }
    Game game = resolve_game(game_option, input->bytes(), source, file, common);
    dump = {game, full, source.regions};
  }

  ProgressBar bar("dump", common.quiet);
  std::size_t objects = 0;
  // A write error names the output, and a data file that does not read names the input.
  const std::string output_name = out.empty() || out == "-" ? "standard output" : out;
  bool input_failed = false;
  // One data file decompressed at a time, dropped when the next is asked for.
  std::size_t next = 0;
  NextLevel next_level = [&]() -> absl::StatusOr<std::optional<DumpedLevel>> {
    if (next > 0) levels->release(next - 1);
    if (next == levels->size()) return std::nullopt;
    auto data = levels->decompressed(next);
    if (!data.ok()) {
      input_failed = true;
      return data.status();
    }
    return DumpedLevel{levels->name(next++), (*data)->bytes, (*data)->regions};
  };
  auto write = [&](std::FILE* stream) -> bool {
    if (!levels) {
      if (dump_json(input->bytes(), dump, stream, bar.callback(), &objects)) return true;
      error(output_name + ": cannot write: " + std::strerror(errno));
      return false;
    }
    if (auto s = dump_datafiles_json(levels->game(), next_level, stream); !s.ok()) {
      error((input_failed ? file : output_name) + ": " + std::string(s.message()));
      return false;
    }
    return true;
  };
  // How many objects the dump holds is known only once it is written: the warning follows it (an
  // archive's document says per data file what it holds).
  auto warn = [&] {
    bar.erase();
    if (!levels && objects == 0) warn_no_objects(file, game_option);
  };
  if (out.empty()) {
    bool ok = write(stdout);
    if (ok) warn();
    return ok ? kOk : kBadInput;
  }
  platform::AtomicFile output;
  if (auto s = output.open(out); !s.ok()) {
    error(std::string(s.message()));
    return kBadInput;
  }
  if (!write(output.stream())) return kBadInput;
  if (auto s = output.commit(); !s.ok()) {
    error(std::string(s.message()));
    return kBadInput;
  }
  warn();
  return kOk;
}

}  // namespace anvil::cli
