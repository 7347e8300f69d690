// What the commands that read level data share when they are given a `.forge` archive: its tables read,
// the data files the command's selectors name, and the dialect of the objects.
#pragma once

#include <optional>
#include <span>
#include <string>
#include <vector>

#include "cli/common.hpp"
#include "model/forge/archive.hpp"

namespace anvil::cli {

struct ArchiveInput {
  forge::Archive archive;
  Game game = Game::ac2;
  std::vector<std::size_t> selected;  // the data files named (all when none was)
};

// Reads the archive's tables, selects the data files `selectors` name ("NAME" or "0xID"), and resolves
// `--game` (`auto`: from the first data file that carves anything, said on stderr unless quiet). Prints
// the one-line error and returns nothing on failure.
std::optional<ArchiveInput> open_archive(const InputFile& input, const std::string& path,
                                         const std::string& game_option, std::span<const std::string> selectors,
                                         bool quiet);

}  // namespace anvil::cli
