#include "reader/level.hpp"

#include <absl/container/flat_hash_set.h>
#include <absl/strings/str_cat.h>

#include <algorithm>
#include <stdexcept>

#include "model/dialect.hpp"
#include "model/json_text.hpp"

namespace anvil {

namespace {

// Carves each region on its own, as a file; `whole` when the one region is all of `bytes` (a level file).
Level carve_in(std::span<const u8> bytes, Game game, std::span<const Extent> regions, bool whole,
               const std::function<void(const Piece&, const Object&)>& on_object,
               const std::function<void(const NearMiss&)>& near_miss, const ProgressFn& progress) {
  Level level;
  level.game = game;
  level.bytes = bytes;
  // Re-parsing a piece reads from its offset in the whole bytes: the same object, since a parse that
  // succeeded inside its region reads the same bytes with more room behind them, and the first valid tail
  // of an unknown instance body lies inside the region too.
  level.tails = std::make_shared<FileTails>(bytes);
  absl::flat_hash_set<u64> seen;
  // Room for more pieces and ids than level data holds (about one object per 700 bytes, two pieces each),
  // so that carving never re-allocates them; the capacity left untouched never becomes resident.
  level.pieces.reserve(bytes.size() / 256);
  seen.reserve(bytes.size() / 512);
  Object object;
  std::size_t end = 0, region_end = 0;
  ProgressSteps steps(progress, bytes.size());
  for (const Extent& region : regions) {
    if (region.offset < region_end || region.offset > bytes.size() || region.length > bytes.size() - region.offset)
      throw std::invalid_argument("carve regions must ascend inside the bytes");
    region_end = region.offset + region.length;
    Carver carver(bytes.subspan(region.offset, region.length), game, whole ? level.tails : nullptr);
    if (near_miss)
      carver.on_near_miss([&](const NearMiss& m) { near_miss({region.offset + m.offset, m.class_name, m.failure}); });
    while (auto extent = carver.next(object)) {
      std::size_t offset = region.offset + extent->offset;
      if (offset > end) level.pieces.push_back({end, offset - end});
      u64 id = object_id(object);
      bool repeated = !seen.insert(id).second;
      level.pieces.push_back({offset, extent->length, static_cast<int>(object.index()), id, repeated});
      if (on_object) on_object(level.pieces.back(), object);
      end = offset + extent->length;
      steps.at(end);
    }
  }
  if (end < bytes.size()) level.pieces.push_back({end, bytes.size() - end});
  if (!whole) level.regions.assign(regions.begin(), regions.end());
  steps.finish();
  return level;
}

}  // namespace

Level carve_level(std::span<const u8> bytes, Game game,
                  const std::function<void(const Piece&, const Object&)>& on_object,
                  std::function<void(const NearMiss&)> near_miss, const ProgressFn& progress) {
  Extent all{0, bytes.size()};
  return carve_in(bytes, game, {&all, 1}, true, on_object, near_miss, progress);
}

Level carve_regions(std::span<const u8> bytes, Game game, std::vector<Extent> regions,
                    const std::function<void(const Piece&, const Object&)>& on_object,
                    std::function<void(const NearMiss&)> near_miss) {
  return carve_in(bytes, game, regions, false, on_object, near_miss, {});
}

Level carve_as(const Level& like, std::span<const u8> bytes,
               const std::function<void(const Piece&, const Object&)>& on_object) {
  if (like.regions.empty()) return carve_level(bytes, like.game, on_object);
  return carve_regions(bytes, like.game, like.regions, on_object);
}

Level carve_mapped(const InputFile& input, Game game, const ProgressFn& progress) {
  // Released in steps, a little behind the carve (which hardly looks back; a page read again is only
  // faulted in again).
  constexpr std::size_t kStep = std::size_t{8} << 20;
  std::size_t released = 0;
  Level level = carve_level(
      input.bytes(), game,
      [&](const Piece& piece, const Object&) {
        if (piece.offset - released >= 2 * kStep) {
          input.release(released, piece.offset - kStep - released);
          released = piece.offset - kStep;
        }
      },
      {}, progress);
  input.release(0, input.bytes().size());
  return level;
}

std::size_t carved_bytes(std::span<const u8> bytes, Game game) {
  Carver carver(bytes, game);
  Object object;
  std::size_t n = 0;
  while (auto extent = carver.next(object)) n += extent->length;
  return n;
}

Detection detect_regions(std::span<const u8> bytes, std::span<const Extent> regions) {
  Detection d;
  std::size_t total = 0;
  for (const Extent& r : regions) total += r.length;
  if (total > kDetectWindows * kDetectWindow) {
    // Window i starts at i/(n-1) of the way to the last window's start: the first at 0, the last ending at
    // the end. An object across a window's edge is not carved in it.
    const std::size_t last_start = total - kDetectWindow;
    std::size_t region = 0, region_start = 0;  // the region holding the window's start, and where it starts
    for (std::size_t i = 0; i < kDetectWindows; ++i) {
      const std::size_t at = i == kDetectWindows - 1 ? last_start : last_start / (kDetectWindows - 1) * i;
      while (at >= region_start + regions[region].length) region_start += regions[region++].length;
      const Extent& r = regions[region];
      const std::size_t from = at - region_start, length = std::min(kDetectWindow, r.length - from);
      auto window = bytes.subspan(r.offset + from, length);
      d.ac2_bytes += carved_bytes(window, Game::ac2);
      d.sws_bytes += carved_bytes(window, Game::sws);
    }
    if (d.ac2_bytes != d.sws_bytes) {
      d.game = d.sws_bytes > d.ac2_bytes ? Game::sws : Game::ac2;
      d.whole_file = false;
      return d;
    }
  }
  d.ac2_bytes = d.sws_bytes = 0;
  for (const Extent& r : regions) {
    d.ac2_bytes += carved_bytes(bytes.subspan(r.offset, r.length), Game::ac2);
    d.sws_bytes += carved_bytes(bytes.subspan(r.offset, r.length), Game::sws);
  }
  d.game = d.sws_bytes > d.ac2_bytes ? Game::sws : Game::ac2;
  d.whole_file = true;
  return d;
}

Detection detect(std::span<const u8> bytes) {
  const Extent whole{0, bytes.size()};
  return detect_regions(bytes, {&whole, 1});
}

Game detect_game(std::span<const u8> bytes) { return detect(bytes).game; }

std::string object_key(const Piece& piece, Game game) {
  std::string key;
  object_key(piece, game, key);
  return key;
}

void object_key(const Piece& piece, Game game, std::string& out) {
  out.resize(json_text::kMaxIdChars);
  out.resize(json_text::format_id(out.data(), piece.id, dialect::facts(game).id_width));
  if (piece.repeated_id) absl::StrAppend(&out, "@", piece.offset);
}

Object parse_piece(const Level& level, const Piece& piece) {
  Object object;
  Extent extent;
  if (auto failure = parse_object_at(level.bytes, piece.offset, static_cast<std::size_t>(piece.kind), object, extent,
                                     level.tails.get());
      failure || extent.length != piece.length)
    throw std::logic_error("a carved object no longer parses: " + (failure ? failure->message() : "length"));
  return object;
}

std::vector<Object> parse_objects(const Level& level) {
  std::vector<Object> objects;
  for (const Piece& p : level.pieces)
    if (p.is_object()) objects.push_back(parse_piece(level, p));
  return objects;
}

}  // namespace anvil
