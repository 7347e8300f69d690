// Carving a level file into a Level (model/level.hpp): its bytes and the pieces they split into, opaque
// spans and objects in file order.
#pragma once

#include <functional>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "model/level.hpp"
#include "model/object.hpp"
#include "model/progress.hpp"
#include "reader/carver.hpp"
#include "reader/file_tails.hpp"
#include "reader/input_file.hpp"

namespace anvil {

// Carves `bytes` (which must outlive the level) in the given dialect. `on_object` sees each object as
// it is carved, parsed; `near_miss` each candidate that failed a check; `progress` how far the carve is.
Level carve_level(std::span<const u8> bytes, Game game,
                  const std::function<void(const Piece&, const Object&)>& on_object = {},
                  std::function<void(const NearMiss&)> near_miss = {}, const ProgressFn& progress = {});

// Carves only inside `regions` (ascending, not overlapping, within `bytes`), each on its own as if it
// were a file; the bytes between them are opaque pieces. Repeated ids are counted over all regions.
Level carve_regions(std::span<const u8> bytes, Game game, std::vector<Extent> regions,
                    const std::function<void(const Piece&, const Object&)>& on_object = {},
                    std::function<void(const NearMiss&)> near_miss = {});

// Carves `bytes` as `like` was carved: in its dialect, and inside its regions (what reading back a
// patched level checks against).
Level carve_as(const Level& like, std::span<const u8> bytes,
               const std::function<void(const Piece&, const Object&)>& on_object = {});

// Carves a mapped file like carve_level, dropping from memory the pages the carve has passed
// (InputFile::release), and the rest at the end: the level then costs little more than its piece list,
// and the objects read again later fault their pages in from the page cache. For a caller that reads
// back only some objects (`patch`).
Level carve_mapped(const InputFile& input, Game game, const ProgressFn& progress = {});

// The number of bytes the dialect carves into objects: what `--game auto` compares.
std::size_t carved_bytes(std::span<const u8> bytes, Game game);

// `auto` (FORMAT.md section 6, README): the dialect that carves more bytes, judged on a sample so that it
// costs a small fixed amount whatever the file size. A file of at most kDetectWindows * kDetectWindow
// bytes is carved whole with both dialects. A larger one is carved in kDetectWindows windows of
// kDetectWindow bytes spread evenly over it (the first at its start, the last at its end); when both
// dialects carve the same number of bytes in the windows (nothing at all, say, as in a file whose level
// data lies between them), the whole file decides, as for a small one. A tie over the whole file is ac2.
inline constexpr std::size_t kDetectWindow = std::size_t{256} << 10;
inline constexpr std::size_t kDetectWindows = 8;

struct Detection {
  Game game = Game::ac2;
  std::size_t ac2_bytes = 0, sws_bytes = 0;  // what each dialect carved of what was looked at
  bool whole_file = true;                    // false: the windows decided
};
Detection detect(std::span<const u8> bytes);
Game detect_game(std::span<const u8> bytes);
// detect() of `regions` of `bytes` judged end to end as one level file (a data file's bodies): a window is
// cut at the end of its region, as no object lies across two.
Detection detect_regions(std::span<const u8> bytes, std::span<const Extent> regions);

// The object's key in the JSON document: "0x" + fixed-width hex id, "@<offset>" when repeated.
std::string object_key(const Piece& piece, Game game);
// The same into `out` (replacing what it held): no allocation once `out` has grown, for dump's loop.
void object_key(const Piece& piece, Game game, std::string& out);

// Parses the object of a piece (which the carver found to parse).
Object parse_piece(const Level& level, const Piece& piece);

// Every object of the level, parsed, in file order.
std::vector<Object> parse_objects(const Level& level);

}  // namespace anvil
