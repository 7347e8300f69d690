#include "view/placed_instances.hpp"

#include <absl/container/flat_hash_set.h>
#include <absl/strings/str_cat.h>

#include <algorithm>
#include <optional>

#include "model/dialect.hpp"
#include "model/json_text.hpp"
#include "model/parallel.hpp"
#include "reader/level.hpp"
#include "reader/split_carve.hpp"

namespace anvil::view {
namespace {

// A Visual's own instance list and what it shows.
struct OwnInstances {
  const std::vector<Matrix>* matrices = nullptr;
  std::optional<u64> shows;
};

OwnInstances own_instances(const ac2::Visual& visual) {
  OwnInstances own;
  // FORMAT.md 2.1: the shown object is a LODSelector or a Mesh, none when its tag[0] is 03.
  if (visual.object.tag[0] != 0x03) own.shows = visual.object.id.value;
  if (!visual.instance) return own;
  if (const auto* lod = std::get_if<ac2::LODSelectorInstance>(&visual.instance->body)) {
    own.matrices = &lod->instances;
    if (!own.shows) own.shows = lod->selector.value;
  } else if (const auto* mesh = std::get_if<ac2::MeshInstanceData>(&visual.instance->body)) {
    own.matrices = &mesh->instances;
  }
  return own;
}

OwnInstances own_instances(const sws::Visual& visual) {
  OwnInstances own;
  if (!visual.instance) return own;
  // FORMAT.md 3.2: an `sws` MeshInstanceData holds no matrices; a LODSelectorInstance shows its selector.
  if (const auto* lod = std::get_if<sws::LODSelectorInstance>(&visual.instance->body)) {
    own.matrices = &lod->instances;
    own.shows = lod->selector.value;
  }
  return own;
}

OwnInstances own_instances(const sws::LODSelector&) { return {}; }

std::size_t id_width(Game game) { return dialect::facts(game).id_width; }

// The object pieces of a level in blocks, each parsed on one thread into records of its own.
constexpr std::size_t kBlock = 2048;

void append_level(const Level& level, const std::string& datafile, unsigned threads, std::vector<PlacedInstance>& out) {
  std::vector<std::size_t> objects;
  for (std::size_t i = 0; i < level.pieces.size(); ++i)
    if (level.pieces[i].is_object()) objects.push_back(i);
  const std::size_t blocks = (objects.size() + kBlock - 1) / kBlock;
  std::vector<std::vector<PlacedInstance>> found(blocks);
  for_each_index(blocks, threads, [&](std::size_t b) {
    std::string key;
    for (std::size_t k = b * kBlock; k < std::min(objects.size(), (b + 1) * kBlock); ++k) {
      const Piece& piece = level.pieces[objects[k]];
      object_key(piece, level.game, key);
      append_instances(parse_piece(level, piece), datafile, key, found[b]);
    }
  });
  for (auto& block : found) std::move(block.begin(), block.end(), std::back_inserter(out));
}

}  // namespace

void append_instances(const Object& object, std::string_view datafile, std::string_view key,
                      std::vector<PlacedInstance>& out) {
  const OwnInstances own = std::visit([](const auto& o) { return own_instances(o); }, object);
  if (own.matrices == nullptr || own.matrices->empty()) return;
  std::string shows;
  if (own.shows) shows = json_text::format_id(*own.shows, anvil::id_width(object));
  for (std::size_t n = 0; n < own.matrices->size(); ++n) {
    const Matrix& m = (*own.matrices)[n];
    out.push_back({std::string(datafile), std::string(key), n, m[kMatrixTranslation], m[kMatrixTranslation + 1],
                   m[kMatrixTranslation + 2], shows});
  }
}

absl::StatusOr<std::vector<PlacedInstance>> placed_instances(LevelSet& set, unsigned threads,
                                                             const std::vector<bool>* among) {
  std::vector<PlacedInstance> out;
  for (std::size_t i = 0; i < set.size(); ++i) {
    if (among != nullptr && !(*among)[i]) continue;
    auto level = set.level(i);
    if (!level.ok()) return level.status();
    append_level(**level, set.name(i), threads, out);
    set.release(i);
  }
  return out;
}

std::vector<PlacedInstance> placed_instances_in_level_file(std::span<const u8> bytes, Game game, unsigned threads) {
  // Each part's visits: every object it carved (its id, for the keys) and the records of its instances,
  // the key filled in once the one carve's objects, and so the repeated ids, are known.
  struct Visited {
    std::size_t offset = 0;
    u64 id = 0;
    std::size_t first = 0, count = 0;  // its records in the part's list
  };
  struct Part {
    std::vector<Visited> visited;
    std::vector<PlacedInstance> records;
  };
  threads = std::max(1u, threads);
  std::vector<Part> parts(threads);
  SplitVisit visit = [&](unsigned p, const Extent& extent, const Object& object) {
    Part& part = parts[p];
    const std::size_t first = part.records.size();
    append_instances(object, "", "", part.records);
    part.visited.push_back({extent.offset, object_id(object), first, part.records.size() - first});
    return true;
  };
  SplitCarve carve = split_carve(bytes, game, {.parts = threads}, visit);

  std::vector<PlacedInstance> out;
  std::vector<std::size_t> cursor(parts.size(), 0);
  absl::flat_hash_set<u64> seen;
  seen.reserve(carve.objects.size());
  const std::size_t width = id_width(game);
  for (const Extent& extent : carve.objects) {
    // The first part that carved this object (parts overlap where one hands over to the next).
    const Visited* found = nullptr;
    Part* owner = nullptr;
    for (std::size_t p = 0; p < parts.size(); ++p) {
      auto& visited = parts[p].visited;
      while (cursor[p] < visited.size() && visited[cursor[p]].offset < extent.offset) ++cursor[p];
      if (!found && cursor[p] < visited.size() && visited[cursor[p]].offset == extent.offset) {
        found = &visited[cursor[p]];
        owner = &parts[p];
      }
    }
    if (!found) continue;  // split_carve visits every object it returns: not reached
    const bool repeated = !seen.insert(found->id).second;
    if (found->count == 0) continue;
    std::string key = json_text::format_id(found->id, width);
    if (repeated) absl::StrAppend(&key, "@", extent.offset);
    for (std::size_t r = found->first; r < found->first + found->count; ++r) {
      PlacedInstance& record = owner->records[r];
      record.key = key;
      out.push_back(std::move(record));
    }
  }
  return out;
}

}  // namespace anvil::view
