#include "view/placed_instances.hpp"

#include <absl/container/flat_hash_set.h>

#include <algorithm>
#include <charconv>
#include <optional>

#include "model/json_text.hpp"
#include "model/parallel.hpp"
#include "reader/level.hpp"
#include "reader/split_carve.hpp"
#include "view/huge_pages.hpp"

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

// Where an object's instances stand, without strings: records are made once their count is known, into
// a list reserved for all of them.
struct Spot {
  double x, y, z;
};
struct Placing {
  std::optional<u64> shows;
  std::size_t width = 0;             // of the object's ids (its dialect's)
  std::size_t first = 0, count = 0;  // its spots in a list of them
};

Placing placing(const Object& object, std::vector<Spot>& spots) {
  const OwnInstances own = std::visit([](const auto& o) { return own_instances(o); }, object);
  Placing p{own.shows, anvil::id_width(object), spots.size(), 0};
  if (own.matrices == nullptr) return p;
  for (const Matrix& m : *own.matrices)
    spots.push_back({m[kMatrixTranslation], m[kMatrixTranslation + 1], m[kMatrixTranslation + 2]});
  p.count = own.matrices->size();
  return p;
}

// The records of one object, written over p.count default records from `at` on.
void make_records(const Placing& p, const std::vector<Spot>& spots, u32 datafile, u64 id, u64 repeated_at,
                  PlacedInstance* at) {
  for (std::size_t n = 0; n < p.count; ++n) {
    const Spot& s = spots[p.first + n];
    at[n] = {id,
             repeated_at,
             p.shows.value_or(0),
             n,
             s.x,
             s.y,
             s.z,
             datafile,
             static_cast<u8>(p.width),
             p.shows.has_value()};
  }
}

// The object pieces of a level in blocks, each parsed on one thread.
constexpr std::size_t kBlock = 2048;

void append_level(const Level& level, u32 datafile, unsigned threads, std::vector<PlacedInstance>& out) {
  std::vector<std::size_t> objects;
  for (std::size_t i = 0; i < level.pieces.size(); ++i)
    if (level.pieces[i].is_object()) objects.push_back(i);
  struct Block {
    std::vector<std::pair<std::size_t, Placing>> placings;  // by piece
    std::vector<Spot> spots;
  };
  std::vector<Block> blocks((objects.size() + kBlock - 1) / kBlock);
  for_each_index(blocks.size(), threads, [&](std::size_t b) {
    for (std::size_t k = b * kBlock; k < std::min(objects.size(), (b + 1) * kBlock); ++k) {
      Placing p = placing(parse_piece(level, level.pieces[objects[k]]), blocks[b].spots);
      if (p.count > 0) blocks[b].placings.emplace_back(objects[k], p);
    }
  });
  // Each block's records made on its thread, into its place in `out`.
  std::vector<std::size_t> at(blocks.size() + 1, out.size());
  for (std::size_t b = 0; b < blocks.size(); ++b) at[b + 1] = at[b] + blocks[b].spots.size();
  out.resize(at.back());
  for_each_index(blocks.size(), threads, [&](std::size_t b) {
    std::size_t next = at[b];
    for (const auto& [piece, p] : blocks[b].placings) {
      const Piece& object = level.pieces[piece];
      make_records(p, blocks[b].spots, datafile, object.id,
                   object.repeated_id ? object.offset : PlacedInstance::kNotRepeated, &out[next]);
      next += p.count;
    }
  });
}

}  // namespace

std::size_t format_key(char* out, const PlacedInstance& p) {
  std::size_t size = json_text::format_id(out, p.id, p.id_width);
  if (p.repeated_at != PlacedInstance::kNotRepeated) {
    out[size++] = '@';
    size = static_cast<std::size_t>(std::to_chars(out + size, out + kMaxKeyChars, p.repeated_at).ptr - out);
  }
  return size;
}

std::string key_of(const PlacedInstance& p) {
  char buffer[kMaxKeyChars];
  return std::string(buffer, format_key(buffer, p));
}

std::string shows_of(const PlacedInstance& p) {
  return p.has_shows ? json_text::format_id(p.shows, p.id_width) : std::string();
}

void append_instances(const Object& object, std::vector<PlacedInstance>& out) {
  std::vector<Spot> spots;
  const Placing p = placing(object, spots);
  out.resize(out.size() + p.count);
  make_records(p, spots, 0, object_id(object), PlacedInstance::kNotRepeated, out.data() + out.size() - p.count);
}

absl::StatusOr<PlacedInstances> placed_instances(LevelSet& set, unsigned threads, const std::vector<bool>* among) {
  PlacedInstances out;
  for (std::size_t i = 0; i < set.size(); ++i) out.datafiles.push_back(set.name(i));
  for (std::size_t i = 0; i < set.size(); ++i) {
    if (among != nullptr && !(*among)[i]) continue;
    auto level = set.level(i);
    if (!level.ok()) return level.status();
    append_level(**level, static_cast<u32>(i), threads, out.records);
    set.release(i);
  }
  return out;
}

PlacedInstances placed_instances_in_level_file(std::span<const u8> bytes, Game game, unsigned threads) {
  // Each part's visits: every object it carved (its id, for the keys) and where its instances stand; the
  // records are made once the one carve's objects, and so the repeated ids, are known.
  struct Visited {
    std::size_t offset = 0;
    u64 id = 0;
    Placing placing;
  };
  struct Part {
    std::vector<Visited> visited;
    std::vector<Spot> spots;
  };
  threads = std::max(1u, threads);
  std::vector<Part> parts(threads);
  // Room for an object every 512 bytes (the census file has one every 700): the lists seldom move.
  for (Part& part : parts) {
    part.visited.reserve(bytes.size() / threads / 512 + 16);
    part.spots.reserve(bytes.size() / threads / 512 + 16);
  }
  SplitVisit visit = [&](unsigned p, const Extent& extent, const Object& object) {
    Part& part = parts[p];
    part.visited.push_back({extent.offset, object_id(object), placing(object, part.spots)});
    return true;
  };
  SplitCarve carve = split_carve(bytes, game, {.parts = threads}, visit);

  // The one carve's objects, each from the first part that carved it (parts overlap where one hands over
  // to the next), with where its records go and whether an object before it had its id.
  struct Chosen {
    const Visited* visited;
    const Part* part;
    std::size_t at;
    bool repeated;
  };
  std::vector<Chosen> chosen;
  chosen.reserve(carve.objects.size());
  std::vector<std::size_t> cursor(parts.size(), 0);
  absl::flat_hash_set<u64> seen;
  seen.reserve(carve.objects.size());
  std::size_t total = 0;
  for (const Extent& extent : carve.objects) {
    for (std::size_t p = 0; p < parts.size(); ++p) {
      auto& visited = parts[p].visited;
      while (cursor[p] < visited.size() && visited[cursor[p]].offset < extent.offset) ++cursor[p];
      if (cursor[p] < visited.size() && visited[cursor[p]].offset == extent.offset) {
        const Visited& v = visited[cursor[p]];
        const bool repeated = !seen.insert(v.id).second;
        if (v.placing.count > 0) chosen.push_back({&v, &parts[p], total, repeated});
        total += v.placing.count;
        break;
      }
    }
  }
  // Reserved, then advised to huge pages before the records are made: on a large level their first touch
  // (one thread, the default construction) otherwise faults every 4 KiB.
  PlacedInstances out{{""}, {}};
  std::vector<PlacedInstance>& records = out.records;
  records.reserve(total);
  advise_huge_pages(records.data(), total * sizeof(PlacedInstance));
  records.resize(total);
  constexpr std::size_t kObjects = 4096;
  for_each_index((chosen.size() + kObjects - 1) / kObjects, threads, [&](std::size_t b) {
    for (std::size_t k = b * kObjects; k < std::min(chosen.size(), (b + 1) * kObjects); ++k) {
      const Chosen& c = chosen[k];
      make_records(c.visited->placing, c.part->spots, 0, c.visited->id,
                   c.repeated ? c.visited->offset : PlacedInstance::kNotRepeated, &records[c.at]);
    }
  });
  return out;
}

}  // namespace anvil::view
