// The pending patch's changes on the editor's map (serve/map_changes.hpp).
#include "serve/map_changes.hpp"

#include <deque>
#include <map>

namespace anvil::serve {
namespace {

std::tuple<u32, u64, u64> object_of(const view::PlacedInstance& p) { return {p.datafile, p.id, p.repeated_at}; }
std::tuple<double, double, double> at(const view::PlacedInstance& p) { return {p.x, p.y, p.z}; }

struct Comparison {
  const view::PlacedInstances& before;
  const view::PlacedInstances& after;
  MapChanges out;

  void added(const view::PlacedInstance& p) {
    out.added.push_back({p.datafile, view::key_of(p), static_cast<u32>(p.index), p.x, p.y, p.z});
  }

  // One object's instances: records [b0, b1) before, [a0, a1) after.
  void pair(u32 b0, u32 b1, std::size_t a0, std::size_t a1) {
    if (b1 - b0 == a1 - a0) {
      for (u32 i = 0; i < b1 - b0; ++i) {
        const view::PlacedInstance& p = after.records[a0 + i];
        if (at(before.records[b0 + i]) != at(p)) out.changed.push_back({b0 + i, i, p.x, p.y, p.z});
      }
      return;
    }
    // A count that changed: equal positions paired in order, the rest added or removed (view/map_scene.cpp).
    std::map<std::tuple<double, double, double>, std::deque<u32>> unmatched;
    for (u32 i = b0; i < b1; ++i) unmatched[at(before.records[i])].push_back(i);
    std::vector<bool> used(b1 - b0, false);
    for (std::size_t k = a0; k < a1; ++k) {
      const view::PlacedInstance& p = after.records[k];
      auto it = unmatched.find(at(p));
      if (it == unmatched.end() || it->second.empty()) {
        added(p);
        continue;
      }
      const u32 i = it->second.front();
      it->second.pop_front();
      used[i - b0] = true;
      if (i - b0 != k - a0) out.changed.push_back({i, static_cast<u32>(k - a0), p.x, p.y, p.z});
    }
    for (u32 i = b0; i < b1; ++i)
      if (!used[i - b0]) out.removed.push_back(i);
  }
};

}  // namespace

MapRuns runs_of(const view::PlacedInstances& before) {
  MapRuns runs;
  const std::vector<view::PlacedInstance>& r = before.records;
  runs.run_of.resize(r.size());
  for (std::size_t i = 0; i < r.size(); ++i) {
    if (i == 0 || object_of(r[i]) != object_of(r[i - 1])) {
      runs.by_object.emplace(object_of(r[i]), static_cast<u32>(runs.first.size()));
      runs.first.push_back(static_cast<u32>(i));
    }
    runs.run_of[i] = static_cast<u32>(runs.first.size() - 1);
  }
  runs.first.push_back(static_cast<u32>(r.size()));
  return runs;
}

MapChanges compare_marks(const view::PlacedInstances& before, const MapRuns& runs, const view::PlacedInstances& after) {
  Comparison c{before, after, {}};
  const std::size_t run_count = runs.first.size() - 1;
  std::vector<bool> seen(run_count, false);
  std::size_t expected = 0;  // the run of before that follows the last one found
  const std::vector<view::PlacedInstance>& a = after.records;
  for (std::size_t a0 = 0, a1 = 0; a0 < a.size(); a0 = a1) {
    for (a1 = a0 + 1; a1 < a.size() && object_of(a[a1]) == object_of(a[a0]);) ++a1;
    std::size_t run = run_count;
    if (expected < run_count && object_of(before.records[runs.first[expected]]) == object_of(a[a0])) {
      run = expected;
    } else if (auto it = runs.by_object.find(object_of(a[a0])); it != runs.by_object.end()) {
      run = it->second;
    }
    if (run == run_count || seen[run]) {  // an object only after
      for (std::size_t k = a0; k < a1; ++k) c.added(a[k]);
      continue;
    }
    seen[run] = true;
    expected = run + 1;
    c.pair(runs.first[run], runs.first[run + 1], a0, a1);
  }
  for (std::size_t run = 0; run < run_count; ++run)
    if (!seen[run])
      for (u32 i = runs.first[run]; i < runs.first[run + 1]; ++i) c.out.removed.push_back(i);
  return std::move(c.out);
}

}  // namespace anvil::serve
