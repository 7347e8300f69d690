// The search index (serve/object_index.hpp): each object's JSON events, as `dump` would print them,
// walked once by a collecting handler instead of being printed and parsed again.
#include "serve/object_index.hpp"

#include <absl/strings/ascii.h>
#include <absl/strings/str_cat.h>

#include <algorithm>
#include <atomic>
#include <cstring>
#include <functional>
#include <string_view>

#include "model/dialect.hpp"
#include "model/parallel.hpp"
#include "reader/level.hpp"
#include "writer/json_writer.hpp"

namespace anvil::serve {
namespace {

// A RapidJSON SAX handler that keeps, of an object's events, the strings under the keys the search
// looks at, and counts the instance matrices (the arrays inside an "instances" array).
class Collector {
 public:
  using Ch = char;
  static constexpr bool kIgnoresCounts = true;
  explicit Collector(IndexedObject& out) : out_(out) {}

  bool Null() { return value(); }
  bool Bool(bool) { return value(); }
  bool Int(int) { return value(); }
  bool Uint(unsigned) { return value(); }
  bool Int64(std::int64_t) { return value(); }
  bool Uint64(std::uint64_t) { return value(); }
  bool Double(double) { return value(); }
  bool RawNumber(const Ch*, unsigned, bool) { return value(); }
  bool String(const Ch* s, unsigned n, bool) {
    std::string_view text(s, n);
    if (key_ == "class")
      add(out_.classes, text, false);
    else if (key_ == "source" || key_ == "replacement" || key_ == "material")
      add(out_.materials, text);
    else if (key_ == "mesh_hash" || key_ == "mesh" || key_ == "selector")
      add(out_.meshes, text);
    return value();
  }
  bool Key(const Ch* s, unsigned n, bool) {
    key_.assign(s, n);
    return true;
  }
  bool StartObject() {
    open(kObject);
    return true;
  }
  bool EndObject(unsigned = 0) { return close(); }
  bool StartArray() {
    if (!stack_.empty() && stack_.back() == kInstances) ++out_.instances;
    open(key_ == "instances" ? kInstances : kArray);
    return true;
  }
  bool EndArray(unsigned = 0) { return close(); }

 private:
  enum Container : char { kObject, kArray, kInstances };
  IndexedObject& out_;
  std::string key_;
  std::vector<Container> stack_;

  void open(Container container) {
    stack_.push_back(container);
    key_.clear();
  }
  bool close() {
    stack_.pop_back();
    key_.clear();
    return true;
  }
  bool value() {
    key_.clear();
    return true;
  }
  // Adds `text` to a space-separated list unless there; ids lowercase (the search folds case anyway).
  static void add(std::string& list, std::string_view text, bool lower_case = true) {
    std::string lower = lower_case ? absl::AsciiStrToLower(std::string(text)) : std::string(text);
    if ((" " + list + " ").find(" " + lower + " ") != std::string::npos) return;
    if (!list.empty()) list += ' ';
    list += lower;
  }
};

IndexedObject index_object(const Level& level, const Piece& piece, std::uint32_t datafile) {
  IndexedObject entry;
  entry.datafile = datafile;
  entry.key = object_key(piece, level.game);
  Object object = parse_piece(level, piece);
  entry.classes = std::string(class_name(object));
  Collector collector(entry);
  JsonWriter<Collector> w(collector);
  w.start_object();
  std::visit([&](const auto& o) { w.fields(o); }, object);
  w.end_object();
  return entry;
}

}  // namespace

void ObjectIndex::build(Session& session) {
  std::vector<IndexedObject> objects;
  total_ = session.datafiles();
  for (std::size_t d = 0; d < session.datafiles(); ++d) {
    if (stop_) return;
    session.with_levels([&](LevelSet& set) {
      absl::StatusOr<const Level*> level = set.level(d);
      if (!level.ok()) {
        std::lock_guard hold(errors_lock_);
        errors_.emplace_back(level.status().message());
        return;
      }
      for (const Piece& piece : (*level)->pieces)
        if (piece.is_object()) objects.push_back(index_object(**level, piece, static_cast<std::uint32_t>(d)));
      set.release(d);  // an archive's or a folder's data file read again when asked for; a single level kept
    });
    ++done_;
  }
  for (Column* c : {&keys_, &classes_, &materials_, &meshes_}) c->value_of.reserve(objects.size());
  for (const IndexedObject& o : objects) {
    keys_.add(o.key);  // dump's keys are lowercase already
    classes_.add(absl::AsciiStrToLower(o.classes));
    materials_.add(o.materials);
    meshes_.add(o.meshes);
  }
  for (Column* c : {&keys_, &classes_, &materials_, &meshes_}) c->building = {};  // only the build needs it
  objects_ = std::move(objects);
  ready_ = true;
}

std::vector<std::string> ObjectIndex::errors() const {
  std::lock_guard hold(errors_lock_);
  return errors_;
}

std::size_t ObjectIndex::objects() const { return ready() ? objects_.size() : 0; }

std::size_t ObjectIndex::instances() const {
  std::size_t n = 0;
  if (ready())
    for (const IndexedObject& o : objects_) n += o.instances;
  return n;
}

void ObjectIndex::Column::add(std::string value) {
  auto [it, fresh] = building.try_emplace(std::move(value), static_cast<std::uint32_t>(starts.size()));
  if (fresh) {
    starts.push_back(static_cast<std::uint32_t>(text.size()));
    text.append(it->first);
    text.push_back('\n');
  }
  value_of.push_back(it->second);
}

void ObjectIndex::Column::mark(std::string_view needle, std::vector<char>& matched, unsigned threads) const {
  std::vector<char> holds(starts.size(), 0);  // per distinct value
  std::atomic<bool> any{false};
  const std::boyer_moore_horspool_searcher searcher(needle.begin(), needle.end());
  // The values in one run of whole lines per thread (a needle holds no line end, so no hit spans two), at
  // least 1 MiB of text each.
  const std::size_t parts = std::max<std::size_t>(1, std::min<std::size_t>(threads, text.size() >> 20));
  for_each_index(parts, threads, [&](std::size_t part) {
    const std::size_t first = starts.size() * part / parts, past = starts.size() * (part + 1) / parts;
    if (first == past) return;
    const auto end = past < starts.size() ? text.begin() + starts[past] : text.end();
    for (auto at = text.begin() + starts[first];;) {
      at = std::search(at, end, searcher);
      if (at == end) break;
      // The value whose line holds the hit; the search goes on at the next value's line.
      const auto offset = static_cast<std::uint32_t>(at - text.begin());
      const std::size_t value =
          static_cast<std::size_t>(std::upper_bound(starts.begin(), starts.end(), offset) - starts.begin()) - 1;
      holds[value] = 1;
      any = true;
      if (value + 1 >= past) break;
      at = text.begin() + starts[value + 1];
    }
  });
  if (!any) return;
  for (std::size_t i = 0; i < value_of.size(); ++i)
    if (holds[value_of[i]]) matched[i] = 1;
}

SearchResult ObjectIndex::search(const SearchQuery& query) const {
  SearchResult result;
  if (!ready()) return result;
  const std::size_t first = query.page * query.page_size;
  auto take = [&](const IndexedObject& o) {
    if (result.total >= first && result.page.size() < query.page_size) result.page.push_back(&o);
    ++result.total;
  };
  const std::string text = absl::AsciiStrToLower(query.text);
  if (text.empty()) {
    for (const IndexedObject& o : objects_) take(o);
    return result;
  }
  if (text.find('\n') != std::string::npos) return result;  // no value holds one
  std::vector<char> matched(objects_.size(), 0);
  const SearchField f = query.field;
  const unsigned threads = thread_budget();
  if (f == SearchField::any || f == SearchField::key) keys_.mark(text, matched, threads);
  if (f == SearchField::any || f == SearchField::class_name) classes_.mark(text, matched, threads);
  if (f == SearchField::any || f == SearchField::material) materials_.mark(text, matched, threads);
  if (f == SearchField::any || f == SearchField::mesh) meshes_.mark(text, matched, threads);
  for (std::size_t i = 0; i < objects_.size(); ++i)
    if (matched[i]) take(objects_[i]);
  return result;
}

bool parse_search_field(std::string_view name, SearchField& field) {
  if (name == "any" || name.empty())
    field = SearchField::any;
  else if (name == "key")
    field = SearchField::key;
  else if (name == "class")
    field = SearchField::class_name;
  else if (name == "material")
    field = SearchField::material;
  else if (name == "mesh")
    field = SearchField::mesh;
  else
    return false;
  return true;
}

}  // namespace anvil::serve
