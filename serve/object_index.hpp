// The editor's search: every object of the opened file indexed once (its key, its classes, the
// materials and meshes it names, its instances), built in the background when the server starts, so
// that a search over a level of 600,000 instances answers from memory, a page of results at a time.
// Each searched field is kept as one column: its distinct values, lowercase, in one text, one line each,
// and each object's value among them, so that a search is one substring scan of each column it looks in
// (of its distinct values only) and one pass over the objects, not a comparison per object.
#pragma once

#include <absl/container/flat_hash_map.h>

#include <atomic>
#include <cstdint>
#include <mutex>
#include <string>
#include <string_view>
#include <vector>

#include "serve/session.hpp"

namespace anvil::serve {

struct IndexedObject {
  std::uint32_t datafile = 0;
  std::string key;              // as `dump` keys it
  std::string classes;          // its class, then every class inside it, space-separated
  std::string materials;        // the material ids it names (a MaterialInfo's source and replacement), lowercase
  std::string meshes;           // the mesh hashes and LODSelector ids it names, lowercase
  std::uint32_t instances = 0;  // the placements (instance matrices) it holds
};

// What a search looks in: every field, or one.
enum class SearchField { any, key, class_name, material, mesh };

struct SearchQuery {
  SearchField field = SearchField::any;
  std::string text;  // a case-insensitive substring; empty matches everything
  std::size_t page = 0;
  std::size_t page_size = 50;
};

struct SearchResult {
  std::size_t total = 0;  // matches in all
  std::vector<const IndexedObject*> page;
};

class ObjectIndex {
 public:
  // Indexes every data file of the session, one after another, each under the session's lock; an
  // error of a data file is kept (errors()) and the others still indexed.
  void build(Session& session);
  bool ready() const { return ready_.load(); }
  // Asks a build() under way to end after the data file it is indexing (the index stays not ready).
  void stop() { stop_ = true; }
  // Data files indexed so far, of how many.
  std::size_t done() const { return done_.load(); }
  std::size_t total() const { return total_.load(); }
  std::vector<std::string> errors() const;
  std::size_t objects() const;  // once ready
  std::size_t instances() const;

  // Valid once ready() (an empty result before).
  SearchResult search(const SearchQuery& query) const;

 private:
  // One searched field of every object: its distinct lowercase values, each once, in one text, each
  // ended by '\n' (which no value holds), and which of them each object has. Classes, materials and
  // meshes repeat from object to object: a search scans the few distinct values, then marks the objects.
  struct Column {
    std::string text;
    std::vector<std::uint32_t> starts;                         // where each distinct value begins in `text`
    std::vector<std::uint32_t> value_of;                       // per object: its value's index
    absl::flat_hash_map<std::string, std::uint32_t> building;  // value -> index, while the index is built
    void add(std::string value);
    // Sets matched[i] for every object i whose value holds `needle` (not empty, no '\n'), the text scanned
    // on up to `threads` threads.
    void mark(std::string_view needle, std::vector<char>& matched, unsigned threads) const;
  };
  std::vector<IndexedObject> objects_;
  Column keys_, classes_, materials_, meshes_;
  std::vector<std::string> errors_;
  mutable std::mutex errors_lock_;
  std::atomic<bool> ready_{false}, stop_{false};
  std::atomic<std::size_t> done_{0}, total_{0};
};

// The query field's name in the API ("any", "key", "class", "material", "mesh"); false if unknown.
bool parse_search_field(std::string_view name, SearchField& field);

}  // namespace anvil::serve
