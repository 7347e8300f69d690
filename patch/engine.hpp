// Internal to patch/: the state of one patch being applied, and what its operations share. The
// document (FORMAT.md section 4) is never held whole: an object's JSON is made when an operation first
// looks at it, then edited in place by the RFC 6902 operations (patch/rfc6902.cpp) and re-read as
// `build` reads it (patch/document.cpp); the bulk operations (patch/bulk.cpp) edit the typed model.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "model/release.hpp"
#include "patch/object_keys.hpp"
#include "patch/patch.hpp"

namespace anvil::patch {

using rapidjson::Document;
using rapidjson::Value;

// Thrown inside the engine; apply_patch turns it into the PatchError of the current operation, or of
// the operation `op_index` names (a failure found later than the operation that caused it).
struct OpFailure {
  std::string reason;
  int exit_code = kBadPatch;
  std::optional<std::size_t> op_index = {};
  std::string pointer = {};
  bool malformed = false;  // PatchError::malformed
};

[[noreturn]] void fail(std::string reason, int exit_code = kBadPatch);
// An operation that is not one: whatever it is applied to (PatchError::malformed).
[[noreturn]] void fail_malformed(std::string reason);

// Where a pointer lands in the document of section 4.
struct Location {
  enum Area { kRoot, kMeta, kSpans, kAllObjects, kObject };
  std::vector<std::string> segments;
  Area area = kRoot;
  std::size_t piece = 0;  // kObject: index into Level::pieces
};

// An object whose JSON does not re-read as `build` reads it, since operation `op_index`.
struct Broken {
  std::size_t op_index = 0;
  std::string pointer;  // that operation's path
  std::string reason;   // build's reason for the JSON as it is now
};

class Engine {
 public:
  Engine(const Level& level, const PatchOptions& options) : level_(level), options_(options), keys_(level) {}

  void run_op(std::size_t index, const Value& op, std::string& pointer_for_errors);
  PatchResult finish();

 private:
  struct State {
    Object object;  // the model of the object's JSON when it last re-read
    Document dom;   // the object's JSON as the operations left it (valid when dom_valid)
    bool dom_valid = false;
    bool edited = false;
    std::optional<Broken> broken;
    std::size_t length = 0;  // the size of `object`'s encoding (the piece's, unless the object resized)
  };

  // --- the document (document.cpp) ---
  Location locate(const std::string& pointer);
  State& state(std::size_t piece);
  Document& dom(std::size_t piece);
  const Value& read(const Location& loc);
  void build_document(Document& out, bool objects, bool spans);
  void require_modifiable(const Location& loc, std::string_view what);
  // After an operation changed the JSON of these objects: their keys follow their ids, and each is
  // re-read as `build` reads it (a failure is remembered, not thrown: a later operation may repair it).
  void revalidate(std::vector<std::size_t> pieces);
  std::optional<std::string> reread(std::size_t piece, Object& out, std::size_t* length = nullptr);
  // Whether an object may change size: inside a data file's bodies, where the sizes of the container
  // around it are known (FORGE.md 5); never in a level file (FORMAT.md 1).
  bool resizable() const { return !level_.regions.empty(); }
  // Where the object lies, with the length its current model encodes to.
  Extent extent(std::size_t piece);
  std::string key_pointer(std::size_t piece) const;

  // --- RFC 6902 (rfc6902.cpp) ---
  void op_test(const Location& loc, const Value& value);
  void modify(const std::string& op, const Location& loc, const Location* from, const Value* value);
  Location changed_location(const Location& at, bool resizes);
  std::string location_text(const Location& at);

  // --- bulk operations (bulk.cpp) ---
  Object typed(std::size_t piece);
  int kind_of(std::size_t piece) const;
  void commit(std::size_t piece, Object&& object);
  std::vector<std::size_t> objects_member(const Value& op, bool required);
  void op_swap_material(const Value& op);
  void op_transform(const Value& op);
  void op_switch_distance(const Value& op, bool scale);
  void op_duplicate_instance(const Value& op);
  void op_remove_instance(const Value& op);
  void op_add_material(const Value& op);
  template <class Edit>
  void instance_op(const Value& op, const char* name, Edit&& edit);
  // Each Visual that the op's "objects" names, typed, in file order (any other object refused, or passed
  // over under "*"): visit(piece, object, star) says how many matches it made there; their sum.
  template <class Visit>
  std::size_t each_visual(const Value& op, Visit&& visit);

  void record(std::string op, std::size_t piece, std::string pointer, std::string old_value, std::string new_value) {
    if (options_.record_changes)
      changes_.push_back(
          {op_index_, std::move(op), piece, std::move(pointer), std::move(old_value), std::move(new_value)});
  }
  [[noreturn]] void fail_broken(const Broken& broken) const;

  const Level& level_;
  PatchOptions options_;
  std::size_t op_index_ = 0;
  std::string op_pointer_;
  ObjectKeys keys_;
  std::map<std::size_t, State> states_;
  Document scratch_;
  std::vector<Change> changes_;
};

// Members of an operation object (bulk.cpp).
const Value* optional_member(const Value& op, const char* name);

}  // namespace anvil::patch
