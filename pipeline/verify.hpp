// `verify`: the proof that a reading of a file is lossless. Every object is re-encoded from its fields
// (bytes -> model -> bytes) and, unless disabled, also through its JSON (bytes -> JSON -> model ->
// bytes), object by object as the file is carved, so memory stays flat whatever the file size.
#pragma once

#include <optional>
#include <span>
#include <string>

#include "model/object.hpp"
#include "model/progress.hpp"

namespace anvil {

struct VerifyReport {
  std::size_t size = 0;
  std::size_t objects = 0;
  std::size_t opaque_bytes = 0;
  std::size_t near_misses = 0;                  // candidates (class id in place) that failed a check and stay opaque
  std::optional<std::size_t> first_difference;  // file offset of the first byte that differs
  std::string difference;                       // which round trip, and why
  bool identical() const { return !first_difference.has_value(); }
};

// `progress` hears how far the carve has got. With `threads` > 1 the file is carved in that many parts
// at once (reader/split_carve.hpp), each round-tripping its objects; the report is the one thread's, to
// the byte.
VerifyReport verify_bytes(std::span<const u8> bytes, Game game, bool json_round_trip, const ProgressFn& progress = {},
                          unsigned threads = 1);

}  // namespace anvil
