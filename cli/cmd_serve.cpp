// anvilrt serve FILE [--patch-out PATCH.json] [--out-dir DIR] [--port N] [--open] [--game ac2|sws|auto]
#include <iostream>
#include <optional>

#include "cli/archive_input.hpp"
#include "cli/commands.hpp"
#include "pipeline/game_folder.hpp"
#include "serve/server.hpp"

namespace anvil::cli {

int run_serve(int argc, char** argv) {
  std::string file, game_option;
  serve::ServeOptions options;
  po::options_description described("options");
  add_game_option(described, game_option);
  add_jobs_option(described, "the map's reading of data files and its marks");
  described.add_options()("patch-out", po::value(&options.patch_out),
                          "where \"Save patch\" writes the pending patch (without it, the page downloads it)")(
      "out-dir", po::value(&options.out_dir),
      "the folder \"Write a copy\" writes into (default: FILE's folder); the page names only a file name")(
      "port", po::value(&options.port)->default_value(0), "the port on 127.0.0.1 (0: a free one)")(
      "open", "start the browser on the editor's URL (xdg-open)")(
      "file", po::value(&file)->required(),
      "a level file, a decompressed data file, a .forge archive or a game folder");
  po::variables_map vm;
  Common common;
  int code = kOk;
  if (!parse(argc, argv,
             "usage: anvilrt serve FILE [--patch-out PATCH.json] [--out-dir DIR] [--port N] [--open]\n\n"
             "FILE may be a game folder (its .forge archives, docs/game-folders.md): the patch is then the\n"
             "folder's, as anvilrt patch DIR takes it, and \"Write a copy\" writes a new folder.\n"
             "Opens FILE read-only and serves an editor for it in the browser, on 127.0.0.1 only. The first\n"
             "line of standard output is the URL to open; it carries a random token, without which the\n"
             "server answers 403. The page searches the objects (by key, class, material, mesh), shows an\n"
             "object's fields typed from the format's declarations, and edits them: every edit is checked\n"
             "by the patch engine as `anvilrt patch --dry-run` checks it, and refused with its reason. The\n"
             "pending patch (docs/patches.md) is saved to --patch-out (or downloaded), or applied to a\n"
             "copy named in the page, written into --out-dir and verified as `patch -o` does. FILE is\n"
             "never written. Runs until Ctrl+C (or SIGTERM). docs/serve.md describes the page and its\n"
             "security.\n"
             "Exit 0: stopped; 2: FILE does not read, or the port cannot be listened on.",
             described, {{"file", "FILE"}}, common, vm, code))
    return code;
  if (!check_game_option(game_option)) return kBadInput;
  if (options.port < 0 || options.port > 65535) {
    error("--port must be 0 (a free port) to 65535");
    return kBadInput;
  }
  options.open_browser = vm.count("open") > 0;
  PathErrors path_errors;
  std::optional<OpenedInput> opened;
  std::optional<folder::GameFolder> game_folder;
  serve::ServeInput input;
  input.path = file;
  if (folder::is_folder(file)) {
    auto listed = folder::open_game_folder(file);
    if (!listed.ok()) {
      error(std::string(listed.status().message()));
      return kBadInput;
    }
    if (!listed->recovered.empty()) std::cerr << "anvilrt: " << listed->recovered << "\n";
    game_folder = std::move(*listed);
    input.folder = &*game_folder;
    if (game_option != "auto") input.folder_options.game = parse_game(game_option);
    input.folder_options.layout = common.layout;
  } else if (opened = open_one(file, {.game = game_option, .announce = true}, common, path_errors); !opened) {
    return kBadInput;
  } else if (opened->archive) {
    input.input = &*opened->input;
    input.source = opened->source;
    input.game = opened->archive->game;
    input.archive = &opened->archive->archive;
  } else {
    input.input = &*opened->input;
    input.source = opened->source;
    input.game = resolve_game(game_option, opened->input->bytes(), opened->source, file, common);
  }
  absl::Status status = serve::serve(
      input, options, [](const std::string& url) { std::cout << url << std::endl; },
      [&file](const std::string& message) { warning(file, message); });
  if (!status.ok()) {
    error(file + ": " + std::string(status.message()));
    return kBadInput;
  }
  return kOk;
}

}  // namespace anvil::cli
