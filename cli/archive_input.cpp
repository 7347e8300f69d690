#include "cli/archive_input.hpp"

#include <iostream>

#include "pipeline/forge_extract.hpp"
#include "reader/forge/variant_resolver.hpp"

namespace anvil::cli {

namespace {

// Reads the archive's tables and resolves its variant as the user chose it (forge::open_archive(): `layout`
// when named, `--game`; what is not named found by content, or left to the command with detect_later),
// then selects the data files the selectors name ("NAME" or "0xID"). The dialect `auto` picks is said on
// stderr when `noted`. Prints the one-line error, keeps it in `failure` and returns nothing on failure.
std::optional<ArchiveInput> read_archive_input(const InputFile& file, const std::string& path,
                                               const OpenOptions& options, bool noted, std::optional<u8> layout,
                                               std::string& failure) {
  if (!check_game_option(options.game)) return std::nullopt;
  const bool auto_game = options.game == "auto";
  const forge::VariantChoice choice{
      .layout = layout, .game = auto_game ? std::nullopt : parse_game(options.game), .deferred = options.detect_later};
  auto opened = forge::open_archive(file.bytes(), &file, choice);
  if (!opened.ok()) {
    failure = std::string(opened.status().message());
    error(path + ": " + failure);
    return std::nullopt;
  }
  ArchiveInput input;
  input.archive = std::move(opened->archive);
  input.game_known = opened->game.has_value();
  input.game = opened->game.value_or(Game::ac2);
  auto selected = forge::select_data_files(input.archive, options.selectors);  // all when none is named
  if (!selected.ok()) {
    failure = std::string(selected.status().message());
    error(path + ": " + failure);
    return std::nullopt;
  }
  input.selected = std::move(*selected);
  if (auto_game && input.game_known && noted)
    std::cerr << "anvilrt: " << path << ": game auto: picked " << game_name(input.game) << "\n";
  return input;
}

}  // namespace

OpenedInput open_path(const WalkedFile& file, const OpenOptions& options, const Common& common) {
  OpenedInput o;
  o.path = file.path;
  o.sure = file.sure;
  auto input = InputFile::open(o.path);
  if (!input.ok()) {
    o.open = input.status();
    return o;
  }
  o.input.emplace(std::move(*input));
  const Common silent{.quiet = true, .verbose = common.verbose, .layout = common.layout};
  if (options.archive_only)
    o.source.kind = SourceKind::archive;
  else
    o.source = find_source(o.input->bytes(), o.path, options.announce ? common : silent);
  if (o.source.kind != SourceKind::archive) return o;
  o.archive =
      read_archive_input(*o.input, o.path, options, options.announce && common.verbose, common.layout, o.failure);
  if (!o.archive) {
    o.tables_failed = true;
    return o;
  }
  o.names = forge::data_file_names(o.archive->archive);
  return o;
}

std::optional<OpenedInput> open_one(const std::string& path, const OpenOptions& options, const Common& common,
                                    PathErrors& errors) {
  OpenedInput o = open_path({path, true}, options, common);
  if (!o.input) {
    errors.failed(path, o.open);
    return std::nullopt;
  }
  if (o.tables_failed) return std::nullopt;
  return o;
}

}  // namespace anvil::cli
