#include "view/map_scene.hpp"

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <absl/strings/str_cat.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <limits>
#include <map>
#include <string_view>
#include <tuple>

#include "model/json_text.hpp"
#include "model/parallel.hpp"
#include "view/huge_pages.hpp"

namespace anvil::view {
namespace {

// Colours that stay apart from each other for most eyes (Tableau 10 and two more); the rest share kOther.
constexpr std::array<const char*, 12> kPalette = {"#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948",
                                                  "#b07aa1", "#ff9da7", "#9c755f", "#17becf", "#8c564b", "#d37295"};
constexpr const char* kOther = "#9a9a9a";

// The picture's parts, in pixels.
constexpr double kLeft = 72, kTop = 40, kBottom = 48, kUnplacedRow = 24, kLegend = 270, kGap = 16;

bool placeable(double x, double y) { return std::isfinite(x) && std::isfinite(y); }

// 1, 2 or 5 times a power of ten, the nearest at or above `rough`.
double round_step(double rough) {
  if (!(rough > 0) || !std::isfinite(rough)) return 1;
  const double power = std::pow(10.0, std::floor(std::log10(rough)));
  for (double m : {1.0, 2.0, 5.0, 10.0})
    if (m * power >= rough) return m * power;
  return 10 * power;
}

std::vector<Tick> ticks(double low, double high, double origin, double scale, bool down) {
  std::vector<Tick> out;
  const double step = round_step((high - low) / 6);
  for (double v = std::ceil(low / step) * step; v <= high && out.size() < 50; v += step) {
    const double value = std::abs(v) < step * 1e-9 ? 0 : v;
    out.push_back({value, down ? origin - scale * value : origin + scale * value});
  }
  return out;
}

using Group = std::pair<std::vector<const PlacedInstance*>, std::vector<const PlacedInstance*>>;

// One object's instances before and after: the same count pairs them by index (kept or moved); a count
// that changed (duplicate_instance, remove_instance, a different object) pairs equal positions, in order,
// and the rest were added or removed.
void pair_group(const Group& group, std::vector<Mark>& marks, std::vector<Mark>& removed) {
  const auto& [before, after] = group;
  auto at = [](const PlacedInstance* p) { return std::make_tuple(p->x, p->y, p->z); };
  if (before.size() == after.size()) {
    for (std::size_t i = 0; i < after.size(); ++i) {
      Mark m{after[i], at(before[i]) == at(after[i]) ? MarkKind::kept : MarkKind::moved};
      m.from_x = before[i]->x;
      m.from_y = before[i]->y;
      marks.push_back(m);
    }
    return;
  }
  std::map<std::tuple<double, double, double>, std::deque<std::size_t>> unmatched;  // before, by position
  for (std::size_t i = 0; i < before.size(); ++i) unmatched[at(before[i])].push_back(i);
  std::vector<bool> used(before.size(), false);
  for (const PlacedInstance* p : after) {
    auto it = unmatched.find(at(p));
    if (it == unmatched.end() || it->second.empty()) {
      marks.push_back({p, MarkKind::added});
      continue;
    }
    used[it->second.front()] = true;
    it->second.pop_front();
    marks.push_back({p, MarkKind::kept});
  }
  for (std::size_t i = 0; i < before.size(); ++i)
    if (!used[i]) removed.push_back({before[i], MarkKind::removed});
}

std::vector<Mark> compare(const std::vector<const PlacedInstance*>& before,
                          const std::vector<const PlacedInstance*>& after) {
  // Objects (a data file's key: its id, and its offset when repeated) in the order they first appear
  // after, then those only before.
  absl::flat_hash_map<std::tuple<u32, u64, u64>, std::size_t> index;
  std::vector<Group> groups;
  auto group_of = [&](const PlacedInstance* p) -> Group& {
    auto [it, fresh] = index.try_emplace(std::make_tuple(p->datafile, p->id, p->repeated_at), groups.size());
    if (fresh) groups.emplace_back();
    return groups[it->second];
  };
  for (const PlacedInstance* p : after) group_of(p).second.push_back(p);
  for (const PlacedInstance* p : before) group_of(p).first.push_back(p);
  std::vector<Mark> marks, removed;
  marks.reserve(after.size());
  for (const Group& g : groups) pair_group(g, marks, removed);
  marks.insert(marks.end(), removed.begin(), removed.end());
  return marks;
}

std::vector<const PlacedInstance*> selected(const std::vector<PlacedInstance>& all, const MapOptions& options) {
  absl::flat_hash_set<std::string_view> keys(options.objects.begin(), options.objects.end());
  std::vector<const PlacedInstance*> out;
  out.reserve(keys.empty() ? all.size() : 0);
  char key[kMaxKeyChars];
  for (const PlacedInstance& p : all)
    if (keys.empty() || keys.contains(std::string_view(key, format_key(key, p)))) out.push_back(&p);
  return out;
}

// What a mark shows: the shown id and its width, or (0, 0) for none; its key is made only for the few
// distinct ones.
using Shown = std::pair<u64, u8>;
Shown shown(const PlacedInstance& p) { return p.has_shows ? Shown(p.shows, p.id_width) : Shown(0, 0); }

// The marks in blocks, each block's pass on one thread.
constexpr std::size_t kMarksPerBlock = 16384;

// One block's first pass: its kinds counted (unplaced ones marked), what its marks show counted, and the
// bounds of what it places.
struct BlockTally {
  std::size_t moved = 0, added = 0, removed = 0, unplaced = 0;
  absl::flat_hash_map<Shown, std::size_t> shown;
  double lo_x = std::numeric_limits<double>::infinity(), hi_x = -lo_x, lo_y = lo_x, hi_y = -lo_x;

  void take(double x, double y) {
    if (!placeable(x, y)) return;
    lo_x = std::min(lo_x, x), hi_x = std::max(hi_x, x), lo_y = std::min(lo_y, y), hi_y = std::max(hi_y, y);
  }
};

void tally(Mark* begin, Mark* end, BlockTally& t) {
  for (Mark* m = begin; m != end; ++m) {
    t.moved += m->kind == MarkKind::moved;
    t.added += m->kind == MarkKind::added;
    t.removed += m->kind == MarkKind::removed;
    // A moved mark keeps where it was in from_x/from_y (level units until framed).
    const bool from_ok = m->kind != MarkKind::moved || placeable(m->from_x, m->from_y);
    if (!placeable(m->instance->x, m->instance->y) || !from_ok) {
      m->kind = MarkKind::unplaced;
      ++t.unplaced;
    }
    ++t.shown[shown(*m->instance)];
    t.take(m->instance->x, m->instance->y);
    if (m->kind == MarkKind::moved) t.take(m->from_x, m->from_y);
  }
}

// The legend: the most common shown objects by instances drawn (ties by key), each with its colour, then
// "other" (its index is the colour of every mark `colour` does not hold). Only the few with a colour of
// their own are ranked and given their key.
absl::flat_hash_map<Shown, std::size_t> rank_colours(MapScene& scene,
                                                     const absl::flat_hash_map<Shown, std::size_t>& counts,
                                                     std::size_t& other) {
  std::vector<std::pair<Shown, std::size_t>> ranked;
  ranked.reserve(counts.size());
  std::size_t total = 0;
  for (const auto& [what, count] : counts) {
    total += count;
    if (what.second != 0) ranked.emplace_back(what, count);  // not "none"
  }
  // Keys of one width order as their ids; of two widths, as their text.
  auto before = [](const std::pair<Shown, std::size_t>& a, const std::pair<Shown, std::size_t>& b) {
    if (a.second != b.second) return a.second > b.second;
    if (a.first.second == b.first.second) return a.first.first < b.first.first;
    return json_text::format_id(a.first.first, a.first.second) < json_text::format_id(b.first.first, b.first.second);
  };
  const std::size_t own = std::min({scene.options.colours, kPalette.size(), ranked.size()});
  std::partial_sort(ranked.begin(), ranked.begin() + static_cast<std::ptrdiff_t>(own), ranked.end(), before);
  absl::flat_hash_map<Shown, std::size_t> colour;
  std::size_t others = total;
  for (std::size_t i = 0; i < own; ++i) {
    const auto& [what, count] = ranked[i];
    colour[what] = i;
    scene.legend.push_back({json_text::format_id(what.first, what.second), count, kPalette[i]});
    others -= count;
  }
  other = scene.legend.size();
  if (others > 0) scene.legend.push_back({"", others, kOther});
  return colour;
}

// The frame: equal scale on both axes, the placed marks' bounds (`all`) centred in the plot.
void frame(MapScene& scene, const BlockTally& all) {
  const MapOptions& o = scene.options;
  double lo_x = all.lo_x, hi_x = all.hi_x, lo_y = all.lo_y, hi_y = all.hi_y;
  if (lo_x > hi_x) lo_x = lo_y = 0, hi_x = hi_y = 1;
  scene.plot_left = kLeft;
  scene.plot_top = kTop;
  scene.plot_right = std::max(kLeft + 64, o.width - kLegend - kGap);
  scene.plot_bottom = std::max(kTop + 64, o.height - kBottom - (scene.unplaced ? kUnplacedRow : 0));
  const double w = scene.plot_right - scene.plot_left, h = scene.plot_bottom - scene.plot_top;
  // A span of zero (one place) is drawn as one level unit; the extent itself may not be finite.
  double span_x = hi_x - lo_x, span_y = hi_y - lo_y;
  if (!std::isfinite(span_x) || !std::isfinite(span_y)) span_x = span_y = std::numeric_limits<double>::max();
  const double span = std::max({span_x / w, span_y / h, 1e-30});
  scene.scale = 0.94 / (span > 0 ? span : 1);
  if (span_x == 0 && span_y == 0) scene.scale = std::min(w, h) / 2;
  scene.origin_x = (scene.plot_left + scene.plot_right) / 2 - scene.scale * (lo_x / 2 + hi_x / 2);
  scene.origin_y = (scene.plot_top + scene.plot_bottom) / 2 + scene.scale * (lo_y / 2 + hi_y / 2);
  scene.x_ticks = ticks((scene.plot_left - scene.origin_x) / scene.scale,
                        (scene.plot_right - scene.origin_x) / scene.scale, scene.origin_x, scene.scale, false);
  scene.y_ticks = ticks((scene.origin_y - scene.plot_bottom) / scene.scale,
                        (scene.origin_y - scene.plot_top) / scene.scale, scene.origin_y, scene.scale, true);
  scene.scale_bar_units = round_step(120 / scene.scale) / (round_step(120 / scene.scale) * scene.scale > 200 ? 2 : 1);
}

}  // namespace

const char* mark_class(MarkKind kind) {
  switch (kind) {
    case MarkKind::plain:
      return "";
    case MarkKind::kept:
      return "kept";
    case MarkKind::moved:
      return "moved";
    case MarkKind::added:
      return "added";
    case MarkKind::removed:
      return "removed";
    case MarkKind::unplaced:
      return "unplaced";
  }
  return "";
}

MapScene build_map_scene(const PlacedInstances& before, const PlacedInstances* after, const MapOptions& options,
                         unsigned threads) {
  MapScene scene;
  scene.options = options;
  scene.datafiles = &before.datafiles;
  scene.compared = after != nullptr;
  threads = std::max(1u, threads);
  if (after) {
    scene.marks = compare(selected(before.records, options), selected(after->records, options));
  } else if (options.objects.empty()) {
    // Every record, one plain mark each, made on all threads.
    const std::vector<PlacedInstance>& records = before.records;
    scene.marks.reserve(records.size());
    advise_huge_pages(scene.marks.data(), records.size() * sizeof(Mark));  // as the records' list
    scene.marks.resize(records.size());
    for_each_index((records.size() + kMarksPerBlock - 1) / kMarksPerBlock, threads, [&](std::size_t b) {
      for (std::size_t i = b * kMarksPerBlock; i < std::min(records.size(), (b + 1) * kMarksPerBlock); ++i)
        scene.marks[i] = {&records[i], MarkKind::plain};
    });
  } else {
    for (const PlacedInstance* p : selected(before.records, options)) scene.marks.push_back({p, MarkKind::plain});
  }
  std::vector<Mark>& marks = scene.marks;
  // The two passes over the marks in one range per thread (what each shows is counted per range, then
  // merged: a level shows many distinct objects).
  const std::size_t ranges = std::min<std::size_t>(threads, (marks.size() + kMarksPerBlock - 1) / kMarksPerBlock);
  auto range = [&](std::size_t r) {
    return std::make_pair(marks.data() + marks.size() * r / ranges, marks.data() + marks.size() * (r + 1) / ranges);
  };
  std::vector<BlockTally> tallies(ranges);
  for_each_index(ranges, threads, [&](std::size_t r) {
    auto [begin, end] = range(r);
    tally(begin, end, tallies[r]);
  });
  BlockTally all;
  std::vector<std::size_t> first_unplaced(ranges, 0);  // each range's first unplaced mark's place in their row
  for (std::size_t r = 0; r < ranges; ++r) {
    BlockTally& t = tallies[r];
    first_unplaced[r] = all.unplaced;
    all.moved += t.moved, all.added += t.added, all.removed += t.removed, all.unplaced += t.unplaced;
    if (r == 0)
      all.shown = std::move(t.shown);
    else
      for (const auto& [what, count] : t.shown) all.shown[what] += count;
    all.take(t.lo_x, t.lo_y);
    all.take(t.hi_x, t.hi_y);
  }
  scene.moved = all.moved, scene.added = all.added, scene.removed = all.removed, scene.unplaced = all.unplaced;
  std::size_t other = 0;
  const absl::flat_hash_map<Shown, std::size_t> colour = rank_colours(scene, all.shown, other);
  frame(scene, all);
  for_each_index(ranges, threads, [&](std::size_t r) {
    auto [begin, end] = range(r);
    std::size_t row = first_unplaced[r];
    for (Mark* m = begin; m != end; ++m) {
      auto it = colour.find(shown(*m->instance));
      m->colour = it == colour.end() ? other : it->second;
      if (m->kind == MarkKind::unplaced) {
        m->at_x = std::min(scene.plot_left + 6 + 8 * static_cast<double>(row++), scene.plot_right - 6);
        m->at_y = scene.plot_bottom + kBottom + kUnplacedRow / 2;
        continue;
      }
      if (m->kind == MarkKind::moved) {
        m->from_x = scene.to_px(m->from_x);
        m->from_y = scene.to_py(m->from_y);
      }
      m->at_x = scene.to_px(m->instance->x);
      m->at_y = scene.to_py(m->instance->y);
    }
  });
  return scene;
}

}  // namespace anvil::view
