#include "cli/input_view.hpp"

#include "pipeline/game_folder.hpp"

namespace anvil::cli {

InputView input_view(const OpenedInput& o) {
  InputView in;
  in.path = o.path;
  in.sure = o.sure;
  in.read = o.input.has_value();
  in.tables_failed = o.tables_failed;
  if (o.input) in.bytes = o.input->bytes();
  in.source = o.source;
  if (o.archive) {
    in.archive = &o.archive->archive;
    in.archive_game = o.archive->game;
  }
  return in;
}

std::optional<view::MapTarget> level_set_target(const std::string& file, const std::string& game_option,
                                                const Common& common, PathErrors& path_errors,
                                                std::optional<OpenedInput>& opened) {
  view::MapTarget target;
  if (file != "-" && folder::is_folder(file)) {
    target.folder = file;
    if (game_option != "auto") target.folder_options.game = parse_game(game_option);
    target.folder_options.layout = common.layout;
    return target;
  }
  opened = open_one(file, {.game = game_option, .announce = true}, common, path_errors);
  if (!opened) return std::nullopt;
  target.file = input_view(*opened);
  if (!opened->archive) target.game = resolve_game(game_option, opened->input->bytes(), opened->source, file, common);
  return target;
}

}  // namespace anvil::cli
