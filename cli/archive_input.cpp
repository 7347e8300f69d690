#include "cli/archive_input.hpp"

#include <iostream>

#include "pipeline/archive_patch_output.hpp"
#include "pipeline/forge_extract.hpp"
#include "reader/forge/archive_reader.hpp"

namespace anvil::cli {

std::optional<ArchiveInput> open_archive(const InputFile& file, const std::string& path, const std::string& game_option,
                                         std::span<const std::string> selectors, bool quiet) {
  if (!check_game_option(game_option)) return std::nullopt;
  const std::span<const u8> bytes = file.bytes();
  ArchiveInput input;
  auto archive = forge::read_archive(bytes, &file);
  if (!archive.ok()) {
    error(path + ": " + std::string(archive.status().message()));
    return std::nullopt;
  }
  input.archive = std::move(*archive);
  auto selected = forge::select_data_files(input.archive, selectors);  // all when none is named
  if (!selected.ok()) {
    error(path + ": " + std::string(selected.status().message()));
    return std::nullopt;
  }
  input.selected = std::move(*selected);
  if (game_option != "auto") {
    input.game = *parse_game(game_option);
    return input;
  }
  input.game = forge::detect_archive_game(bytes, input.archive);
  if (!quiet) std::cerr << "anvilrt: " << path << ": game auto: picked " << game_name(input.game) << "\n";
  return input;
}

}  // namespace anvil::cli
