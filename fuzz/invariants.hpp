// The invariants the fuzz harnesses assert, shared with tests/regress_test.cpp so that every
// input a campaign found is replayed through exactly the check that caught it. Each check returns an
// empty string when the invariant holds, otherwise what broke; none of them throws or aborts.
// Each does its work once (docs/fuzzing.md, "Where the time goes"): one carve per dialect serves every
// check that needs it, and what depends only on a fixed base file is computed once per base.
#pragma once

#include <rapidjson/document.h>

#include <memory>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "model/object.hpp"
#include "patch/patch.hpp"
#include "reader/level.hpp"

namespace anvil::fuzz {

// 1. carve: for `ac2` and `sws`, write(read(x)) == x; the pieces tile the file in order; verify_bytes
// (without JSON) agrees, object count included; `carved_bytes` counts what carve_level carved; and
// `auto` (detect_game) picks the dialect that carves more bytes, ac2 on a tie.
std::string check_carve(std::span<const u8> bytes);

// 1b. split: for `ac2` and `sws`, split_carve in 5 parts of any size finds the objects and near misses
// that it finds in one part (the parallel carve of large files is the one carve). A target of its own:
// five more carves per input would halve carve's executions.
std::string check_split_carve(std::span<const u8> bytes);

// 2. json: build_from_dump on arbitrary text either fails with a message, or yields bytes that carve
// into the same objects, at the same offsets, as the document's own fields read; the one-pass path
// never accepts what the document path refuses and builds the same bytes; the built bytes write back,
// and their objects go through JSON and back (verify_bytes with JSON).
std::string check_json(std::span<const u8> text);

// 4. dump: for `ac2` and `sws`, `dump --full` of any bytes starts with "format", "game" and "size" (the
// right ones), builds back to the same bytes (build_from_dump, as `anvilrt build` reads it), and
// verify_bytes with JSON agrees.
std::string check_dump(std::span<const u8> bytes);

// 3. patch: applying the patch `text` to a fixed base file either fails with an exit code 1 or 2, a
// reason and the base untouched, or yields a file of the same size that carves into the same pieces,
// whose edited objects parse to the patched model and encode back to their bytes, whose other pieces
// are byte-identical, which check_written accepts and stream_patched writes, and whose changed JSON
// fields all lie under a location the patch reported changing.
class PatchCheck {
 public:
  // Carves the base, checks that it writes back, and keeps the JSON of each of its objects.
  // `data_file`: the base is the body of a one-entry decompressed data file (wrap_in_data_file), where
  // objects may change size (FORGE.md 5).
  PatchCheck(std::span<const u8> base, Game game, bool data_file = false);
  PatchCheck(const PatchCheck&) = delete;  // the level views base_
  PatchCheck& operator=(const PatchCheck&) = delete;
  std::string check(std::span<const u8> text) const;
  // Set when the base itself breaks an invariant (then check() reports it).
  const std::string& base_error() const { return base_error_; }

 private:
  std::vector<u8> base_;      // the level's bytes
  std::vector<u8> pristine_;  // a copy, to see that the engine never writes into the base
  Game game_;
  bool data_file_ = false;
  Level level_;
  rapidjson::Document dump_;                     // the base's `dump`
  std::vector<const rapidjson::Value*> before_;  // its objects' values, in file order
  std::string base_error_;

  // The parts of check(), each "" when it holds, else what broke.
  std::string patched_output(const patch::PatchResult& result, bool resized, std::vector<u8>& bytes) const;
  std::string compare_pieces(const patch::PatchResult& result, bool resized, std::span<const u8> bytes,
                             std::vector<std::pair<std::size_t, std::string>>& differences) const;
  std::string check_streamed(const patch::PatchResult& result, std::span<const u8> bytes) const;
  std::string check_reported(const patch::PatchResult& result,
                             const std::vector<std::pair<std::size_t, std::string>>& differences) const;
};

std::string check_patch(std::span<const u8> text, std::span<const u8> base, Game game);

// The base files of the patch harness, in corpus/ (one per dialect), each also as the body of a data file.
struct PatchBase {
  const char* file;
  Game game;
  bool data_file = false;  // wrapped by wrap_in_data_file
};
inline constexpr PatchBase kPatchBases[] = {{"ac2/lod_selector_slots.bin", Game::ac2},
                                            {"sws/visual_lod_selector_instance.bin", Game::sws},
                                            {"ac2/lod_selector_slots.bin", Game::ac2, true},
                                            {"sws/visual_lod_selector_instance.bin", Game::sws, true}};

// A decompressed data file (FORGE.md 3) of one entry whose body is `body`.
std::vector<u8> wrap_in_data_file(std::span<const u8> body);

// check_patch on every base file under `corpus_dir`, each read and prepared once.
std::string check_patch_on_corpus(std::span<const u8> text, const std::string& corpus_dir);

}  // namespace anvil::fuzz
