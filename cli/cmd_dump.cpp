// anvilrt dump FILE [NAME|0xID...] [--game ac2|sws|auto] [--full] [-o OUT] [-q] [-v]
#include "cli/archive_input.hpp"
#include "cli/commands.hpp"
#include "cli/progress_bar.hpp"
#include "pipeline/dump_run.hpp"

namespace anvil::cli {

// `anvilrt dump --help`.
constexpr const char* kDumpUsage =
    "usage: anvilrt dump FILE [NAME|0xID...] [--game GAMES|auto] [--full] [-o OUT] [-q] [-v]\n\n"
    "The JSON document of a level file or a decompressed data file (docs/patches.md section 2; its\n"
    "fields: docs/format.md). Of a .forge archive: {\"format\", \"game\", \"datafiles\": {NAME:\n"
    "{\"size\", \"objects\"}}}, one member per data file (those named, or all), the document a patch\n"
    "of the archive addresses (docs/patches.md section 5).";

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
  if (!parse(argc, argv, kDumpUsage, options, {{"file", "FILE"}, {"select", "NAME|0xID", -1}}, common, vm, code))
    return code;
  if (!check_game_option(game_option)) return kBadInput;
  const bool full = vm.count("full") > 0;

  PathErrors path_errors;
  // --full of an archive is refused before its data files are looked at for the dialect.
  auto opened = open_one(file, {.game = full ? "ac2" : game_option, .selectors = selectors, .announce = true}, common,
                         path_errors);
  if (!opened) return kBadInput;
  const Source& source = opened->source;
  DumpRequest request;
  request.input_path = file;
  request.bytes = opened->input->bytes();
  request.out = out;
  if (opened->archive) {
    if (full) {
      error(file +
            ": --full is for level and data files (it is what build reads): extract the data file first "
            "(anvilrt extract) and dump that");
      return kBadInput;
    }
    request.archive = &opened->archive->archive;
    request.archive_game = opened->archive->game;
    request.selected = opened->archive->selected;
  } else {
    if (!selectors.empty()) {
      error(file + ": NAME and 0xID select data files of a .forge archive, and this is a " +
            std::string(source_kind_name(source.kind)));
      return kBadInput;
    }
    Game game = resolve_game(game_option, request.bytes, source, file, common);
    request.level = {game, full, source.regions};
  }
  ProgressBar bar("dump", common.quiet);
  request.progress = bar.callback();
  const DumpRun run = dump_input(request);
  if (!run.status.ok()) {
    error(std::string(run.status.message()));
    return kBadInput;
  }
  // How many objects the dump holds is known only once it is written: the warning follows it (an
  // archive's document says per data file what it holds).
  bar.erase();
  if (!request.archive && run.objects == 0) warn_no_objects(file, game_option);
  return kOk;
}

}  // namespace anvil::cli
