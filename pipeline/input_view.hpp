// One input as a command opened it (cli/archive_input.hpp open_path), as the pipelines over many inputs take
// it (pipeline/verify_run.hpp, stats/stats_run.hpp): views of its bytes and of its archive's tables.
#pragma once

#include <span>
#include <string>

#include "model/forge/archive.hpp"
#include "reader/level.hpp"
#include "reader/level_source.hpp"

namespace anvil {

struct InputView {
  std::string path;
  bool sure = true;            // named, or of a level-file extension: a file that carves nothing is warned about
  bool read = false;           // the file was read (`bytes`)
  bool tables_failed = false;  // an archive whose tables do not read (the opener said so)
  std::span<const u8> bytes;
  Source source;
  const forge::Archive* archive = nullptr;  // an archive whose tables read
  Game archive_game = Game::ac2;            // its dialect
};

}  // namespace anvil
