// Synthetic level data (`anvilrt gen`): model objects drawn from the research notes' observed
// distributions, encoded through their layout declarations, embedded among opaque filler that holds no
// object signature. The same options give the same bytes on every machine (gen/random.hpp).
//
// Filler and every opaque body the generator makes (LightInstance, unknown instance bodies) use only
// bytes that occur in none of the three top-level signatures (Visual 29 8d 65 ec, LODSelector
// 80 6b dc 51, VisualShaderConstants 99 df f5 bf) and not 00: no signature can lie in filler or straddle an
// object's edge, and ids are drawn so that none holds a signature either. A file therefore carves into
// exactly the objects generated, an object behind a 00 byte is one the generator put there, and any
// near miss in it is one that was planted on purpose.
#pragma once

#include <absl/status/status.h>
#include <absl/status/statusor.h>

#include <functional>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "gen/near_miss.hpp"
#include "model/object.hpp"
#include "model/progress.hpp"

namespace anvil::gen {

struct Options {
  Game game = Game::ac2;
  u64 visuals = 0;
  std::optional<u64> selectors;  // sws LODSelectors; default visuals * 221 / 3966 (the notes' level 01)
  u64 seed = 1;
  u64 near_misses = 0;        // planted candidates, cycling through planted_kinds(game)
  bool keep_objects = false;  // keep every object and its extent in the record (for tests)
  // Hears the bytes written so far and the file size estimated from the Visuals written (exact at the end).
  ProgressFn progress;
};

// What the generator wrote: enough for a test to compute every census number independently.
struct Record {
  struct Placed {
    std::size_t offset = 0;
    std::size_t length = 0;
  };
  struct PlantedAt {
    std::size_t offset = 0;  // where the candidate starts
    Planted kind{};
    std::string failure;  // the near-miss kind the reader gives it (CheckFailure::kind(): "path: check")
  };

  Game game = Game::ac2;
  u64 size = 0;          // bytes written
  u64 carved_bytes = 0;  // bytes inside objects
  u64 visuals = 0;
  u64 selectors = 0;
  u64 behind_zero = 0;                          // objects preceded by a 00 byte, as an inline pointer has it
  std::map<std::string, u64> instance_classes;  // Visuals by instance class name, "none" for no instance
  std::vector<PlantedAt> near_misses;
  std::vector<Object> objects;  // with keep_objects, in file order
  std::vector<Placed> placed;   // with keep_objects, one per object
};

// Checks the options: a count the generator cannot honour is an InvalidArgument error.
absl::Status validate(const Options& options);

// Generates the file, handing it to `sink` in consecutive chunks. Options that fail validate():
// std::invalid_argument.
Record generate(const Options& options, const std::function<void(std::span<const u8>)>& sink);

// The whole file in memory.
std::vector<u8> generate_bytes(const Options& options, Record* record = nullptr);

// Writes the file atomically (temporary file, then rename), streaming it in chunks.
absl::StatusOr<Record> generate_file(const Options& options, const std::string& path);

}  // namespace anvil::gen
