// What a path given to a command that reads level data holds, found by its content: a `.forge` archive
// (the `scimitar` magic, FORGE.md 1), a decompressed data file (an entry table that parses exactly to
// its end, FORGE.md 3), or a level file (anything else, FORMAT.md 1). `--game` stays the dialect of the
// objects inside any of them.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "model/forge/variant.hpp"
#include "reader/level.hpp"

namespace anvil {

namespace forge {
struct DataFileView;
}

enum class SourceKind { level_file, data_file, archive };

// "level file", "data file", "forge archive".
std::string_view source_kind_name(SourceKind kind);

struct Source {
  SourceKind kind = SourceKind::level_file;
  std::size_t entries = 0;      // data file: its entries
  std::vector<Extent> regions;  // data file: its bodies, where objects are carved (FORGE.md 3)
  forge::ForgeVariant variant;  // data file: the version and layout its entries' table reads in (FORGE.md 7)
};

// The kind of `bytes`. An empty file is a level file. A data file is read in `layout` when the user names it
// (FORGE.md 7), else in the layout its content reads in.
Source detect_source(std::span<const u8> bytes, std::optional<u8> layout = {});

// A decompressed data file as a source: its bodies, where objects are carved, and its variant.
Source data_file_source(const forge::DataFileView& view);

// Whether `bytes` start with the archive magic `scimitar`.
bool has_archive_magic(std::span<const u8> bytes);

// When the first 8 bytes of `bytes` differ from the archive magic in one or two bits (a damaged archive
// reads as level data, and carves as such): "byte 3 bit 0x04" for each, joined by ", "; otherwise
// nothing (the magic itself, or anything further from it).
std::optional<std::string> archive_magic_damage(std::span<const u8> bytes);

// Carves a level file whole, a data file in its bodies (not for archives: std::invalid_argument).
Level carve_source(std::span<const u8> bytes, const Source& source, Game game);

// The bytes the dialect carves into objects (inside a data file's bodies).
std::size_t carved_bytes(std::span<const u8> bytes, const Source& source, Game game);

// `--game auto` for a level file or a data file: the dialect that carves more bytes (inside the data
// file's bodies), ac2 on a tie. A data file's bodies are judged as detect() judges a level file, on
// windows spread over them when they are large, and whole when the dialects tie on those.
Detection detect(std::span<const u8> bytes, const Source& source);
Game detect_game(std::span<const u8> bytes, const Source& source);

}  // namespace anvil
