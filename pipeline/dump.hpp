// `dump`: the JSON document of a level file (FORMAT.md section 4), streamed as the file is carved; and
// the document of several levels, the data files of an archive (patch/archive_patch.hpp), each under
// its name in "datafiles".
#pragma once

#include <absl/status/status.h>
#include <absl/status/statusor.h>

#include <cstdio>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "model/object.hpp"
#include "model/progress.hpp"
#include "reader/carver.hpp"

namespace anvil {

struct DumpOptions {
  Game game = Game::ac2;
  bool full = false;  // add "spans", every piece in file order, so that `build` can rebuild the file
  // Carve only inside these (a decompressed data file's bodies, FORGE.md 3); empty: the whole bytes.
  std::vector<Extent> regions = {};
};

// Writes the document to `out`; false if writing failed (errno then holds the reason).
// `progress` hears how far the objects (and with `full`, the spans) are written; `objects`, when given,
// receives the number of objects written.
bool dump_json(std::span<const u8> bytes, const DumpOptions& options, std::FILE* out, const ProgressFn& progress = {},
               std::size_t* objects = nullptr);

// The document as a string.
std::string dump_json(std::span<const u8> bytes, const DumpOptions& options);

// One level of a "datafiles" document: its bytes (valid until the next call) and where to carve them.
struct DumpedLevel {
  std::string name;
  std::span<const u8> bytes;
  std::vector<Extent> regions;
};
// Hands out the levels in order: the next one, nothing at the end, or an error that ends the document.
using NextLevel = std::function<absl::StatusOr<std::optional<DumpedLevel>>()>;

// { "format", "game", "datafiles": { "<name>": { "size", "objects" }, ... } }, each level carved as it
// comes. A level's error stops the output there (the document is then incomplete) and is returned; a
// write error is an Internal error, "cannot write: <the system's reason>".
absl::Status dump_datafiles_json(Game game, const NextLevel& next, std::FILE* out);
std::string dump_datafiles_json(Game game, const NextLevel& next, absl::Status& status);

}  // namespace anvil
