#include "pipeline/mods/mod_effects.hpp"

#include <map>
#include <set>

#include "patch/json_util.hpp"

namespace anvil::mods {
namespace {

bool is_inside(const std::string& pointer, const std::string& outer) {
  return pointer.size() > outer.size() && pointer.compare(0, outer.size(), outer) == 0 && pointer[outer.size()] == '/';
}

// The value at `pointer` inside `outer_value` (written at `outer`), as JSON text; nothing when absent.
std::optional<std::string> value_inside(const std::string& outer, const std::optional<std::string>& outer_value,
                                        const std::string& pointer) {
  if (!outer_value) return std::nullopt;
  rapidjson::Document doc;
  doc.Parse<rapidjson::kParseFullPrecisionFlag>(outer_value->c_str());
  auto segments = patch::parse_pointer(pointer.substr(outer.size()));
  if (doc.HasParseError() || !segments) return std::nullopt;
  const rapidjson::Value* found = patch::find(doc, *segments, 0);
  if (!found) return std::nullopt;
  return patch::to_text(*found);
}

bool same_value(const std::optional<std::string>& a, const std::optional<std::string>& b) {
  if (!a || !b) return !a && !b;
  rapidjson::Document x, y;
  x.Parse<rapidjson::kParseFullPrecisionFlag>(a->c_str());
  y.Parse<rapidjson::kParseFullPrecisionFlag>(b->c_str());
  if (x.HasParseError() || y.HasParseError()) return *a == *b;
  return patch::json_equal(x, y);
}

}  // namespace

std::string value_or_removed(const std::optional<std::string>& value) { return value ? *value : "(removed)"; }

ModEffect effect_of(std::span<const patch::Change> changes) {
  std::map<std::string, std::optional<std::string>> last;
  std::set<std::string> archives, datafiles, objects;
  for (const patch::Change& c : changes) {
    if (c.op == "test") continue;
    // A write replaces what was written inside it before.
    for (auto it = last.lower_bound(c.pointer + "/"); it != last.end() && is_inside(it->first, c.pointer);)
      it = last.erase(it);
    last[c.pointer] = c.new_value.empty() ? std::nullopt : std::optional<std::string>(c.new_value);
    auto seg = patch::parse_pointer(c.pointer);
    if (!seg || seg->size() < 2 || (*seg)[0] != "archives") continue;
    archives.insert((*seg)[1]);
    if (seg->size() >= 4 && (*seg)[2] == "datafiles") {
      datafiles.insert((*seg)[1] + "/" + (*seg)[3]);
      if (seg->size() >= 6 && (*seg)[4] == "objects") objects.insert((*seg)[1] + "/" + (*seg)[3] + "/" + (*seg)[5]);
    }
  }
  ModEffect e;
  e.archives.assign(archives.begin(), archives.end());
  e.datafiles.assign(datafiles.begin(), datafiles.end());
  e.objects.assign(objects.begin(), objects.end());
  for (auto& [pointer, value] : last) e.writes.push_back({pointer, std::move(value)});
  return e;
}

std::vector<Conflict> find_conflicts(std::span<const NamedEffect> order, std::size_t first_new) {
  std::vector<Conflict> out;
  // Every field written so far: pointer -> (mod, value), the last writer's.
  struct Written {
    std::size_t mod;
    std::optional<std::string> value;
  };
  std::map<std::string, Written> written;
  for (std::size_t m = 0; m < order.size(); ++m) {
    const bool checked = m >= first_new;
    std::vector<std::pair<std::string, Written>> mine;
    for (const FieldWrite& w : order[m].effect->writes) {
      if (checked) {
        auto report = [&](std::size_t earlier, const std::string& pointer, const std::optional<std::string>& before,
                          const std::optional<std::string>& after) {
          if (earlier != m && !same_value(before, after))
            out.push_back({order[earlier].name, order[m].name, pointer, before, after});
        };
        // The same field, or one around it, written before.
        auto seg = patch::parse_pointer(w.pointer);
        for (std::size_t n = seg ? seg->size() : 0; n > 0; --n) {
          const std::string outer = patch::make_pointer(*seg, n);
          auto it = written.find(outer);
          if (it == written.end()) continue;
          report(it->second.mod, w.pointer,
                 outer == w.pointer ? it->second.value : value_inside(outer, it->second.value, w.pointer), w.value);
        }
        // Fields inside this one written before.
        for (auto it = written.lower_bound(w.pointer + "/"); it != written.end() && is_inside(it->first, w.pointer);
             ++it)
          report(it->second.mod, it->first, it->second.value, value_inside(w.pointer, w.value, it->first));
      }
      mine.push_back({w.pointer, {m, w.value}});
    }
    for (auto& [pointer, w] : mine) {
      for (auto it = written.lower_bound(pointer + "/"); it != written.end() && is_inside(it->first, pointer);)
        it = written.erase(it);
      written[pointer] = std::move(w);
    }
  }
  return out;
}

}  // namespace anvil::mods
