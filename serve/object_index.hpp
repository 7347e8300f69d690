// The editor's search: every object of the opened file indexed once (its key, its classes, the
// materials and meshes it names, its instances), built in the background when the server starts, so
// that a search over a level of 600,000 instances answers from memory, a page of results at a time.
// Each searched field is kept as one column: every object's value, lowercase, in one text, one line per
// object, so that a search is one pass of a substring search over each column it looks in (a few MB),
// not a comparison per object.
#pragma once

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
  // One searched field of every object: its lowercase values, object after object, each ended by '\n'
  // (which no value holds); starts[i] is where object i's line begins.
  struct Column {
    std::string text;
    std::vector<std::uint32_t> starts;
    void add(std::string_view value);
    // Sets matched[i] for every object i whose line holds `needle` (not empty, no '\n').
    void mark(std::string_view needle, std::vector<char>& matched) const;
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
