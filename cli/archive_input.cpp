#include "cli/archive_input.hpp"

#include <iostream>

#include "pipeline/forge_extract.hpp"
#include "reader/forge/archive_game.hpp"
#include "reader/forge/archive_reader.hpp"

namespace anvil::cli {

namespace {

// Reads the archive's tables (in `layout` when the user names it), selects the data files the selectors name
// ("NAME" or "0xID"), and resolves `--game` (`auto`: from the smallest data file that carves anything, said on
// stderr when `noted`), the layout and `auto` left unresolved with detect_later. Prints the one-line error,
// keeps it in `failure` and returns nothing on failure.
std::optional<ArchiveInput> read_archive_input(const InputFile& file, const std::string& path,
                                               const OpenOptions& options, bool noted, std::optional<u8> layout,
                                               std::string& failure) {
  if (!check_game_option(options.game)) return std::nullopt;
  const std::span<const u8> bytes = file.bytes();
  ArchiveInput input;
  // Unless the user names it, the layout is found here with `--game auto` (from the same data file as the
  // dialect), by read_archive() otherwise, or later by the command (detect_later).
  const bool auto_game = options.game == "auto";
  const bool later = options.detect_later && !layout, with_game = !layout && auto_game && !later;
  auto archive =
      later || with_game ? forge::read_archive_tables(bytes, &file) : forge::read_archive(bytes, &file, layout);
  if (!archive.ok()) {
    failure = std::string(archive.status().message());
    error(path + ": " + failure);
    return std::nullopt;
  }
  input.archive = std::move(*archive);
  input.layout_known = !later;
  auto selected = forge::select_data_files(input.archive, options.selectors);  // all when none is named
  if (!selected.ok()) {
    failure = std::string(selected.status().message());
    error(path + ": " + failure);
    return std::nullopt;
  }
  input.selected = std::move(*selected);
  if (!auto_game) {
    input.game = *parse_game(options.game);
    return input;
  }
  if (options.detect_later) {
    input.game_known = false;
    return input;
  }
  input.game = with_game ? forge::detect_layout_and_game(bytes, input.archive)
                         : forge::detect_archive_game(bytes, input.archive);
  if (noted) std::cerr << "anvilrt: " << path << ": game auto: picked " << game_name(input.game) << "\n";
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
