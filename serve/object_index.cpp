// The search index (serve/object_index.hpp): each object's JSON events, as `dump` would print them,
// walked once by a collecting handler instead of being printed and parsed again.
#include "serve/object_index.hpp"

#include <absl/strings/ascii.h>
#include <absl/strings/str_cat.h>

#include <algorithm>
#include <cstring>
#include <functional>

#include "model/dialect.hpp"
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
  entry.classes_folded = absl::AsciiStrToLower(entry.classes);
  return entry;
}

// The search's text, its skip table made once for all the objects it is compared with.
using Searcher = std::boyer_moore_horspool_searcher<std::string::const_iterator>;

bool matches(const IndexedObject& o, SearchField field, const Searcher& searcher) {
  // Every field the search compares is lowercase already (ids, keys, the folded classes).
  auto has = [&](const std::string& s) { return std::search(s.begin(), s.end(), searcher) != s.end(); };
  switch (field) {
    case SearchField::key:
      return has(o.key);
    case SearchField::class_name:
      return has(o.classes_folded);
    case SearchField::material:
      return has(o.materials);
    case SearchField::mesh:
      return has(o.meshes);
    case SearchField::any:
      break;
  }
  return has(o.key) || has(o.classes_folded) || has(o.materials) || has(o.meshes);
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
      if (session.is_archive()) set.release(d);
    });
    ++done_;
  }
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

SearchResult ObjectIndex::search(const SearchQuery& query) const {
  SearchResult result;
  if (!ready()) return result;
  const std::size_t first = query.page * query.page_size;
  const std::string text = absl::AsciiStrToLower(query.text);
  const Searcher searcher(text.begin(), text.end());
  for (const IndexedObject& o : objects_) {
    if (!text.empty() && !matches(o, query.field, searcher)) continue;
    if (result.total >= first && result.page.size() < query.page_size) result.page.push_back(&o);
    ++result.total;
  }
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
