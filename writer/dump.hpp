// `dump`: the JSON document of a level file (FORMAT.md section 4), streamed as the file is carved.
#pragma once

#include <cstdio>
#include <span>
#include <string>

#include "model/object.hpp"
#include "reader/progress.hpp"

namespace anvil {

struct DumpOptions {
  Game game = Game::ac2;
  bool full = false;  // add "spans", every piece in file order, so that `build` can rebuild the file
};

// Writes the document to `out`; false if writing failed.
// `progress` hears how far the objects (and with `full`, the spans) are written; `objects`, when given,
// receives the number of objects written.
bool dump_json(std::span<const u8> bytes, const DumpOptions& options, std::FILE* out, const ProgressFn& progress = {},
               std::size_t* objects = nullptr);

// The document as a string.
std::string dump_json(std::span<const u8> bytes, const DumpOptions& options);

}  // namespace anvil
