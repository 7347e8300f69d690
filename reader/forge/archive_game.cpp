#include "reader/forge/archive_game.hpp"

#include "reader/forge/data_files.hpp"

namespace anvil::forge {

std::optional<Game> data_file_game(std::span<const u8> decoded, const Source& source) {
  const Detection d = detect(decoded, source);
  if (d.ac2_bytes == d.sws_bytes) return std::nullopt;
  return d.ac2_bytes > d.sws_bytes ? Game::ac2 : Game::sws;
}

Game detect_archive_game(std::span<const u8> bytes, const Archive& archive) {
  for (std::size_t i : smallest_first(archive)) {
    // A guess from the bytes, not a reading of them: no checksum vote over the archive is taken for it
    // (the command that reads a data file checks its blocks, and says why it does not read).
    auto read = read_data_file(bytes, archive, i, ChecksumVerdict{});
    if (!read.ok()) continue;
    auto file = view_data_file(read->decoded.bytes, archive.variant());
    if (!file.ok()) continue;
    if (auto game = data_file_game(read->decoded.bytes, data_file_source(*file))) return *game;
  }
  return Game::ac2;
}

}  // namespace anvil::forge
