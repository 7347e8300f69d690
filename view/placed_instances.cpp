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
// Kept for every object of a level file until the records are made: small.
struct Placing {
  u64 shows = 0;             // when has_shows
  u32 first = 0, count = 0;  // its spots in a list of them (a part's, a block's: far fewer than 2^32)
  u8 width = 0;              // of the object's ids (its dialect's)
  bool has_shows = false;
};

// `whole`, when given, gets each instance's whole matrix too (beside its spot).
Placing placing(const Object& object, std::vector<Spot>& spots, std::vector<Matrix>* whole) {
  const OwnInstances own = std::visit([](const auto& o) { return own_instances(o); }, object);
  Placing p{own.shows.value_or(0), static_cast<u32>(spots.size()), 0, static_cast<u8>(anvil::id_width(object)),
            own.shows.has_value()};
  if (own.matrices == nullptr) return p;
  for (const Matrix& m : *own.matrices)
    spots.push_back({m[kMatrixTranslation], m[kMatrixTranslation + 1], m[kMatrixTranslation + 2]});
  if (whole != nullptr) whole->insert(whole->end(), own.matrices->begin(), own.matrices->end());
  p.count = static_cast<u32>(own.matrices->size());
  return p;
}

// The records of one object, written over p.count default records from `at` on; with `whole` (the
// matrices beside `spots`), its matrices over those from `whole_at` on.
void make_records(const Placing& p, const std::vector<Spot>& spots, u32 datafile, u64 id, u64 repeated_at,
                  PlacedInstance* at, const std::vector<Matrix>* whole = nullptr, Matrix* whole_at = nullptr) {
  for (std::size_t n = 0; n < p.count; ++n) {
    const Spot& s = spots[p.first + n];
    at[n] = {id, repeated_at, p.shows, n, s.x, s.y, s.z, datafile, p.width, p.has_shows};
  }
  if (whole != nullptr && whole_at != nullptr) std::copy_n(whole->begin() + p.first, p.count, whole_at);
}

// For each of `ids`, whether one before it is the same: the ids split by a hash of them among up to
// `threads` threads, each keeping a set of its own share.
std::vector<bool> repeated_ids(const std::vector<u64>& ids, unsigned threads) {
  const std::size_t shares = std::max(1u, std::min<unsigned>(threads, static_cast<unsigned>(ids.size() / 65536 + 1)));
  auto share = [&](u64 id) { return static_cast<std::size_t>((id * 0x9E3779B97F4A7C15ULL) >> 32) % shares; };
  std::vector<std::vector<std::size_t>> found(shares);  // the repeated ones' places, by share
  for_each_index(shares, threads, [&](std::size_t t) {
    absl::flat_hash_set<u64> seen;
    seen.reserve(ids.size() / shares + ids.size() / 8 + 16);
    for (std::size_t i = 0; i < ids.size(); ++i)
      if (share(ids[i]) == t && !seen.insert(ids[i]).second) found[t].push_back(i);
  });
  std::vector<bool> repeated(ids.size(), false);
  for (const auto& places : found)
    for (std::size_t i : places) repeated[i] = true;
  return repeated;
}

// The object pieces of a level in blocks, each parsed on one thread.
constexpr std::size_t kBlock = 2048;

void append_level(const Level& level, u32 datafile, unsigned threads, std::vector<PlacedInstance>& out,
                  std::vector<Matrix>* matrices) {
  std::vector<std::size_t> objects;
  for (std::size_t i = 0; i < level.pieces.size(); ++i)
    if (level.pieces[i].is_object()) objects.push_back(i);
  struct Block {
    std::vector<std::pair<std::size_t, Placing>> placings;  // by piece
    std::vector<Spot> spots;
    std::vector<Matrix> whole;  // beside `spots`, when matrices are asked for
  };
  std::vector<Block> blocks((objects.size() + kBlock - 1) / kBlock);
  for_each_index(blocks.size(), threads, [&](std::size_t b) {
    for (std::size_t k = b * kBlock; k < std::min(objects.size(), (b + 1) * kBlock); ++k) {
      Placing p = placing(parse_piece(level, level.pieces[objects[k]]), blocks[b].spots,
                          matrices != nullptr ? &blocks[b].whole : nullptr);
      if (p.count > 0) blocks[b].placings.emplace_back(objects[k], p);
    }
  });
  // Each block's records made on its thread, into its place in `out`.
  std::vector<std::size_t> at(blocks.size() + 1, out.size());
  for (std::size_t b = 0; b < blocks.size(); ++b) at[b + 1] = at[b] + blocks[b].spots.size();
  out.resize(at.back());
  if (matrices != nullptr) matrices->resize(at.back());
  for_each_index(blocks.size(), threads, [&](std::size_t b) {
    std::size_t next = at[b];
    for (const auto& [piece, p] : blocks[b].placings) {
      const Piece& object = level.pieces[piece];
      make_records(p, blocks[b].spots, datafile, object.id,
                   object.repeated_id ? object.offset : PlacedInstance::kNotRepeated, out.data() + next,
                   matrices != nullptr ? &blocks[b].whole : nullptr,
                   matrices != nullptr ? matrices->data() + next : nullptr);
      next += p.count;
    }
  });
}

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
  std::vector<Matrix> whole;  // beside `spots`, when matrices are asked for
};

// The level carved in `threads` parts at once, each part's visits kept; `objects`: the one carve's.
std::vector<Part> carve_in_parts(std::span<const u8> bytes, Game game, unsigned threads, std::vector<Extent>& objects,
                                 bool with_matrices) {
  std::vector<Part> parts(threads);
  // Room for an object every 512 bytes (the census file has one every 700): the lists seldom move.
  for (Part& part : parts) {
    part.visited.reserve(bytes.size() / threads / 512 + 16);
    part.spots.reserve(bytes.size() / threads / 512 + 16);
  }
  SplitVisit visit = [&](unsigned p, const Extent& extent, const Object& object) {
    Part& part = parts[p];
    part.visited.push_back(
        {extent.offset, object_id(object), placing(object, part.spots, with_matrices ? &part.whole : nullptr)});
    return true;
  };
  objects = split_carve(bytes, game, {.parts = threads}, visit).objects;
  return parts;
}

// The one carve's objects, each from the first part that carved it (parts overlap where one hands over
// to the next), matched in ranges on all threads: object k's visit and part, its id, and each range's
// instances (so where its records go).
struct Matched {
  std::vector<const Visited*> visits;
  std::vector<u32> part_of;
  std::vector<u64> ids;
  std::size_t ranges = 1;
  std::vector<std::size_t> first_record;  // per range, its first record's index; last: the records' count

  // Range `r` of the objects: [first, end).
  std::pair<std::size_t, std::size_t> range(std::size_t r) const {
    return std::make_pair(visits.size() * r / ranges, visits.size() * (r + 1) / ranges);
  }
};

Matched match_visits(const std::vector<Extent>& objects, const std::vector<Part>& parts, unsigned threads) {
  Matched m;
  m.visits.resize(objects.size());
  m.part_of.resize(objects.size());
  m.ids.resize(objects.size());
  m.ranges = std::max<std::size_t>(1, std::min<std::size_t>(4 * threads, objects.size() / 4096));
  m.first_record.assign(m.ranges + 1, 0);
  for_each_index(m.ranges, threads, [&](std::size_t r) {
    const auto [begin, end] = m.range(r);
    if (begin == end) return;
    std::vector<std::size_t> cursor(parts.size());
    for (std::size_t p = 0; p < parts.size(); ++p)
      cursor[p] = static_cast<std::size_t>(
          std::lower_bound(parts[p].visited.begin(), parts[p].visited.end(), objects[begin].offset,
                           [](const Visited& v, std::size_t offset) { return v.offset < offset; }) -
          parts[p].visited.begin());
    std::size_t instances = 0;
    for (std::size_t k = begin; k < end; ++k) {
      for (std::size_t p = 0; p < parts.size(); ++p) {
        const auto& visited = parts[p].visited;
        while (cursor[p] < visited.size() && visited[cursor[p]].offset < objects[k].offset) ++cursor[p];
        if (cursor[p] < visited.size() && visited[cursor[p]].offset == objects[k].offset) {
          m.visits[k] = &visited[cursor[p]];
          m.part_of[k] = static_cast<u32>(p);
          m.ids[k] = m.visits[k]->id;
          instances += m.visits[k]->placing.count;
          break;
        }
      }
    }
    m.first_record[r + 1] = instances;
  });
  for (std::size_t r = 0; r < m.ranges; ++r) m.first_record[r + 1] += m.first_record[r];
  return m;
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
  const Placing p = placing(object, spots, nullptr);
  out.resize(out.size() + p.count);
  make_records(p, spots, 0, object_id(object), PlacedInstance::kNotRepeated, out.data() + out.size() - p.count);
}

absl::StatusOr<PlacedInstances> placed_instances(LevelSet& set, unsigned threads, const std::vector<bool>* among,
                                                 bool with_matrices) {
  PlacedInstances out;
  for (std::size_t i = 0; i < set.size(); ++i) out.datafiles.push_back(set.name(i));
  for (std::size_t i = 0; i < set.size(); ++i) {
    if (among != nullptr && !(*among)[i]) continue;
    auto level = set.level(i);
    if (!level.ok()) return level.status();
    append_level(**level, static_cast<u32>(i), threads, out.records, with_matrices ? &out.matrices : nullptr);
    set.release(i);
  }
  return out;
}

PlacedInstances placed_instances_in_level_file(std::span<const u8> bytes, Game game, unsigned threads,
                                               bool with_matrices) {
  threads = std::max(1u, threads);
  std::vector<Extent> objects;
  const std::vector<Part> parts = carve_in_parts(bytes, game, threads, objects, with_matrices);
  const Matched m = match_visits(objects, parts, threads);
  const std::size_t total = m.first_record[m.ranges];
  const std::vector<bool> repeated = repeated_ids(m.ids, threads);
  // Reserved, then advised to huge pages before the records are made: on a large level their first touch
  // (one thread, the default construction) otherwise faults every 4 KiB.
  PlacedInstances out{{""}, {}, {}};
  std::vector<PlacedInstance>& records = out.records;
  records.reserve(total);
  advise_huge_pages(records.data(), total * sizeof(PlacedInstance));
  records.resize(total);
  if (with_matrices) out.matrices.resize(total);
  for_each_index(m.ranges, threads, [&](std::size_t r) {
    const auto [begin, end] = m.range(r);
    std::size_t at = m.first_record[r];
    for (std::size_t k = begin; k < end; ++k) {
      const Visited& v = *m.visits[k];
      const Part& part = parts[m.part_of[k]];
      make_records(v.placing, part.spots, 0, v.id, repeated[k] ? v.offset : PlacedInstance::kNotRepeated,
                   records.data() + at, with_matrices ? &part.whole : nullptr,
                   with_matrices ? out.matrices.data() + at : nullptr);
      at += v.placing.count;
    }
  });
  return out;
}

}  // namespace anvil::view
