// The ids a data file may hold objects of, found without carving: what a game folder's key cache keeps
// (pipeline/folder_key_cache.hpp), whose look-ups carve the data files it names, which confirms them.
#pragma once

#include <span>
#include <vector>

#include "model/level.hpp"
#include "model/object.hpp"
#include "model/primitives.hpp"

namespace anvil {

// The id in front of every class id signature of `game`'s top-level kinds inside `regions` of `bytes`
// (an object's header is its id, then its class id: FORMAT.md 1), sorted, each once. Every object that
// carve_regions() finds there has its id among them, and so has each candidate it rejects: a superset, at
// the speed of the signature search (the carve parses each candidate, about ten times the cost).
std::vector<u64> signature_ids(std::span<const u8> bytes, Game game, std::span<const Extent> regions);

}  // namespace anvil
