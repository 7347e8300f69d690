// The invariants the fuzz harnesses assert (issue 6), shared with tests/regress_test.cpp so that every
// input a campaign found is replayed through exactly the check that caught it. Each check returns an
// empty string when the invariant holds, otherwise what broke; none of them throws or aborts.
#pragma once

#include <span>
#include <string>

#include "model/object.hpp"

namespace anvil::fuzz {

// 1. carve: for `ac2`, `sws` and the dialect `auto` picks, write(read(x)) == x; the pieces tile the
// file in order; verify_bytes (without JSON) agrees; `carved_bytes` counts what carve_level carved.
std::string check_carve(std::span<const u8> bytes);

// 2. json: build_from_dump on arbitrary text either fails with a message, or yields bytes that carve
// into the same objects, at the same offsets, as the document's own fields read, and that write back
// and dump/build back to themselves.
std::string check_json(std::span<const u8> text);

// 4. dump: for `ac2` and `sws`, `dump --full` of any bytes is valid JSON holding "format", "game",
// "size", "objects", "spans", and builds back to the same bytes.
std::string check_dump(std::span<const u8> bytes);

// 3. patch: applying the patch `text` to a fixed base file (bytes `base`, dialect `game`) either fails
// with an operation index, an exit code 1 or 2 and the base untouched, or yields a file of the same size
// that carves into the same pieces, whose edited objects parse to the patched model, whose other pieces
// are byte-identical, and whose changed JSON fields all lie under a location the patch reported.
std::string check_patch(std::span<const u8> text, std::span<const u8> base, Game game);

// The base files of the patch harness, in corpus/ (one per dialect).
struct PatchBase {
  const char* file;
  Game game;
};
inline constexpr PatchBase kPatchBases[] = {{"ac2/lod_selector_slots.bin", Game::ac2},
                                            {"sws/visual_lod_selector_instance.bin", Game::sws}};

// check_patch on every base file under `corpus_dir`, read once.
std::string check_patch_on_corpus(std::span<const u8> text, const std::string& corpus_dir);

}  // namespace anvil::fuzz
