// The editor's map (serve/map_view.hpp).
#include "serve/map_view.hpp"

#include <absl/strings/escaping.h>
#include <absl/strings/str_cat.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <algorithm>
#include <bit>
#include <cmath>
#include <exception>
#include <limits>

#include "view/map_file.hpp"

namespace anvil::serve {
namespace {

using MapWriter = rapidjson::Writer<rapidjson::StringBuffer>;

// Little-endian, as the page's typed arrays read them (every machine a browser runs on).
void put_u32(std::string& out, u32 v) {
  const char bytes[4] = {static_cast<char>(v), static_cast<char>(v >> 8), static_cast<char>(v >> 16),
                         static_cast<char>(v >> 24)};
  out.append(bytes, 4);
}
void put_f32(std::string& out, double v) { put_u32(out, std::bit_cast<u32>(static_cast<float>(v))); }

void string_member(MapWriter& w, const char* name, const std::string& value) {
  w.Key(name);
  w.String(value.data(), static_cast<rapidjson::SizeType>(value.size()));
}

void write_changes(MapWriter& w, const MapChanges& c) {
  w.Key("changed");  // [record before, N after, x, y, z]
  w.StartArray();
  for (const MapChange& m : c.changed) {
    w.StartArray();
    w.Uint(m.before);
    w.Uint(m.index);
    for (double v : {m.x, m.y, m.z}) std::isfinite(v) ? w.Double(v) : w.Null();
    w.EndArray();
  }
  w.EndArray();
  w.Key("removed");
  w.StartArray();
  for (u32 i : c.removed) w.Uint(i);
  w.EndArray();
  w.Key("added");
  w.StartArray();
  for (const MapAdded& a : c.added) {
    w.StartObject();
    w.Key("datafile");
    w.Uint(a.datafile);
    string_member(w, "key", a.key);
    w.Key("index");
    w.Uint(a.index);
    for (auto [name, v] : {std::pair{"x", a.x}, std::pair{"y", a.y}, std::pair{"z", a.z}}) {
      w.Key(name);
      std::isfinite(v) ? w.Double(v) : w.Null();
    }
    w.EndObject();
  }
  w.EndArray();
}

}  // namespace

absl::Status MapView::read_before() {
  if (before_) return absl::OkStatus();
  const ServeInput& input = session_.input();
  absl::StatusOr<view::PlacedInstances> before;
  // A reader's exception (a data file that no longer parses) is this read's error, not the end of the
  // server: prepare() runs on a thread of its own, where nothing else would catch it.
  try {
    if (!session_.is_archive() && !session_.is_folder() && input.source.kind == SourceKind::level_file) {
      // The mapped bytes never change: read without the session's lock, in parts on the threads.
      before = view::placed_instances_in_level_file(input.input->bytes(), input.game, threads_);
    } else {
      session_.with_levels([&](LevelSet& set) { before = view::placed_instances(set, threads_); });
    }
  } catch (const std::exception& e) {
    before = absl::InternalError(absl::StrCat(input.path, ": the map's instances: ", e.what()));
  }
  if (!before.ok()) return before.status();
  before_ = std::move(*before);
  runs_ = runs_of(*before_);
  return absl::OkStatus();
}

std::string MapView::marks_json() const {
  const std::vector<view::PlacedInstance>& records = before_->records;
  std::string keys, datafiles, objects, xy;
  keys.reserve((runs_.first.size() - 1) * 20);
  char key[view::kMaxKeyChars];
  for (std::size_t run = 0; run + 1 < runs_.first.size(); ++run) {
    const view::PlacedInstance& p = records[runs_.first[run]];
    if (run > 0) keys += '\n';
    keys.append(key, view::format_key(key, p));
    put_u32(datafiles, p.datafile);
  }
  objects.reserve(records.size() * 4);
  xy.reserve(records.size() * 8);
  double bounds[4] = {std::numeric_limits<double>::infinity(), std::numeric_limits<double>::infinity(),
                      -std::numeric_limits<double>::infinity(), -std::numeric_limits<double>::infinity()};
  std::size_t unplaced = 0;
  for (std::size_t i = 0; i < records.size(); ++i) {
    const view::PlacedInstance& p = records[i];
    put_u32(objects, runs_.run_of[i]);
    put_f32(xy, p.x);
    put_f32(xy, p.y);
    if (!std::isfinite(p.x) || !std::isfinite(p.y)) {
      ++unplaced;
      continue;
    }
    bounds[0] = std::min(bounds[0], p.x), bounds[1] = std::min(bounds[1], p.y);
    bounds[2] = std::max(bounds[2], p.x), bounds[3] = std::max(bounds[3], p.y);
  }
  rapidjson::StringBuffer buffer;
  MapWriter w(buffer);
  w.StartObject();
  w.Key("instances");
  w.Uint64(records.size());
  w.Key("unplaced");
  w.Uint64(unplaced);
  w.Key("bounds");  // of the placed ones: min x, min y, max x, max y
  w.StartArray();
  for (double b : bounds) w.Double(unplaced == records.size() ? 0.0 : b);
  w.EndArray();
  string_member(w, "keys", keys);
  string_member(w, "datafile", absl::Base64Escape(datafiles));
  string_member(w, "object", absl::Base64Escape(objects));
  string_member(w, "xy", absl::Base64Escape(xy));
  w.EndObject();
  return {buffer.GetString(), buffer.GetSize()};
}

void MapView::prepare() {
  std::lock_guard hold(lock_);
  if (read_before().ok() && marks_.empty()) marks_ = marks_json();
}

absl::StatusOr<std::string> MapView::reply(std::string_view patch_json, bool marks) {
  std::lock_guard hold(lock_);
  if (auto s = read_before(); !s.ok()) return s;
  if (marks && marks_.empty()) marks_ = marks_json();
  MapChanges changes;
  const bool unpatched = patch_json.find_first_not_of(" \t\r\n[]") == std::string_view::npos;
  if (!unpatched) {
    absl::Status status;
    session_.with_levels([&](LevelSet& set) {
      const ServeInput& input = session_.input();
      view::MapInput map_input;
      map_input.path = input.path;
      map_input.set = &set;
      map_input.archive = session_.is_archive();
      map_input.folder = session_.folder_set();
      map_input.variant = input.archive != nullptr ? input.archive->variant() : input.source.variant;
      const view::NamedPatch patch{"the pending patch", std::string(patch_json)};
      auto after = view::instances_after(map_input, {&patch, 1}, *before_, threads_);
      if (!after.ok()) {
        status = after.status();
        return;
      }
      changes = compare_marks(*before_, runs_, *after);
    });
    if (!status.ok()) return status;
  }
  rapidjson::StringBuffer buffer;
  MapWriter w(buffer);
  w.StartObject();
  if (marks) {
    w.Key("marks");
    w.RawValue(marks_.data(), marks_.size(), rapidjson::kObjectType);
  }
  write_changes(w, changes);
  w.EndObject();
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace anvil::serve
