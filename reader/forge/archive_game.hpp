// `--game auto` for an archive: which dialect (ac2, sws) its data files' objects are read in.
#pragma once

#include <optional>
#include <span>

#include "model/forge/archive.hpp"
#include "reader/level_source.hpp"

namespace anvil::forge {

// The dialect that carves more bytes of one decompressed data file's bodies (`source`, detect()'s windows),
// or nothing when both carve as much (no objects): the data file does not decide.
std::optional<Game> data_file_game(std::span<const u8> decoded, const Source& source);

// The dialect of the smallest data file (by stored size; the first of equal ones) that reads and decides
// (data_file_game()); ac2 when none does.
Game detect_archive_game(std::span<const u8> bytes, const Archive& archive);

}  // namespace anvil::forge
