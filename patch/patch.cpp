#include "patch/patch.hpp"

#include <absl/container/flat_hash_map.h>
#include <absl/container/flat_hash_set.h>
#include <absl/strings/escaping.h>
#include <absl/strings/str_format.h>
#include <rapidjson/error/en.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <stdexcept>

#include "model/json_text.hpp"
#include "patch/json_util.hpp"
#include "reader/json_numbers.hpp"
#include "reader/object_json.hpp"
#include "writer/encode.hpp"
#include "writer/json_writer.hpp"
#include "writer/object_json.hpp"

namespace anvil::patch {

std::string PatchError::message() const {
  if (op_index == kWholePatch) return reason;
  return absl::StrFormat("op %d (%s): %s", op_index, pointer, reason);
}

namespace {

using rapidjson::Document;
using rapidjson::Value;

// Passes a buffer's bytes to a ReleaseFn in steps of at least kReleaseStep as a left-to-right pass
// finishes with them.
class Releaser {
 public:
  explicit Releaser(const ReleaseFn& release) : release_(release) {}
  void done_before(std::size_t offset) {
    if (release_ && offset > released_ && offset - released_ >= kReleaseStep) {
      release_(released_, offset - released_);
      released_ = offset;
    }
  }
  void done_all(std::size_t size) {
    if (release_ && size > released_) release_(released_, size - released_);
    released_ = size;
  }

 private:
  static constexpr std::size_t kReleaseStep = std::size_t{4} << 20;
  const ReleaseFn& release_;
  std::size_t released_ = 0;
};

// Thrown inside the engine; apply_patch turns it into the PatchError of the current operation.
struct OpFailure {
  std::string reason;
  int exit_code = kBadPatch;
};

[[noreturn]] void fail(std::string reason, int exit_code = kBadPatch) { throw OpFailure{std::move(reason), exit_code}; }

// A value's text for an error message, cut short.
std::string short_text(const Value& v) {
  std::string text = to_text(v);
  if (text.size() > 120) text = text.substr(0, 117) + "...";
  return text;
}

// The nesting depth of a JSON value, without recursion (patch files may be hostile).
std::size_t depth_of(const Value& root) {
  std::vector<std::pair<const Value*, std::size_t>> stack{{&root, 1}};
  std::size_t deepest = 0;
  while (!stack.empty()) {
    auto [v, depth] = stack.back();
    stack.pop_back();
    deepest = std::max(deepest, depth);
    if (v->IsArray())
      for (auto& item : v->GetArray()) stack.push_back({&item, depth + 1});
    else if (v->IsObject())
      for (auto& m : v->GetObject()) stack.push_back({&m.value, depth + 1});
  }
  return deepest;
}
constexpr std::size_t kMaxDepth = 64;

// The Object alternative of an `sws` LODSelector (Piece::kind).
constexpr int kLODSelectorKind = 1;
static_assert(std::is_same_v<std::variant_alternative_t<kLODSelectorKind, Object>, sws::LODSelector>);

bool is_structural_member(std::string_view name) { return name == "offset" || name == "length" || name == "class"; }

// Where a pointer lands in the document of section 4.
struct Location {
  enum Area { kRoot, kMeta, kSpans, kAllObjects, kObject };
  std::vector<std::string> segments;
  Area area = kRoot;
  std::size_t piece = 0;  // kObject: index into Level::pieces
};

class Engine {
 public:
  Engine(const Level& level, const PatchOptions& options) : level_(level), options_(options) {}

  void run_op(std::size_t index, const Value& op, std::string& pointer_for_errors);
  PatchResult finish();

 private:
  struct State {
    Object object;
    Document dom;
    bool dom_valid = false;
    bool edited = false;
    bool have_skeleton = false;
    std::vector<std::string> skeleton;  // the classes and nulls of the original, which no patch may change
  };

  // --- the document ---
  Location locate(const std::string& pointer);
  std::size_t find_key(const std::string& key);
  State& state(std::size_t piece);
  Document& dom(std::size_t piece);
  const Value& read(const Location& loc);
  void build_document(Document& out, bool objects, bool spans);
  void require_modifiable(const Location& loc, std::string_view what);
  void validate(std::size_t piece);
  std::string key_pointer(std::size_t piece) {
    return "/objects/" + escape_segment(object_key(level_.pieces[piece], level_.game));
  }

  // --- RFC 6902 ---
  void op_test(const Location& loc, const Value& value);
  void dom_add(Document& doc, const std::vector<std::string>& seg, Value& value);
  Value dom_remove(Document& doc, const std::vector<std::string>& seg);
  void modify(const std::string& op, const Location& loc, const Location* from, const Value* value);

  // --- bulk ---
  Object typed(std::size_t piece);
  void commit(std::size_t piece, Object&& object);
  std::vector<std::size_t> objects_member(const Value& op, bool allow_star, bool required);
  void op_swap_material(const Value& op);
  void op_transform(const Value& op);
  void op_switch_distance(const Value& op, bool scale);

  void record(std::string op, std::string pointer, std::string old_value, std::string new_value) {
    if (options_.record_changes)
      changes_.push_back({op_index_, std::move(op), std::move(pointer), std::move(old_value), std::move(new_value)});
  }

  const Level& level_;
  PatchOptions options_;
  std::size_t op_index_ = 0;
  bool indexed_ = false;
  absl::flat_hash_map<std::string, std::size_t> keys_;
  std::map<std::size_t, State> states_;
  Document scratch_;
  std::vector<Change> changes_;
};

// ---------------------------------------------------------------------------------------------------
// The document

std::size_t Engine::find_key(const std::string& key) {
  if (!indexed_) {
    keys_.reserve(level_.pieces.size());
    for (std::size_t i = 0; i < level_.pieces.size(); ++i)
      if (level_.pieces[i].is_object()) keys_.emplace(object_key(level_.pieces[i], level_.game), i);
    indexed_ = true;
  }
  auto it = keys_.find(key);
  if (it == keys_.end()) fail(absl::StrFormat("no object with key \"%s\" in this file", key));
  return it->second;
}

Location Engine::locate(const std::string& pointer) {
  auto segments = parse_pointer(pointer);
  if (!segments) fail("not a JSON pointer (RFC 6901: \"\" or \"/\" segments, \"~0\" and \"~1\" escapes)");
  Location loc;
  loc.segments = std::move(*segments);
  const auto& seg = loc.segments;
  if (seg.empty()) {
    loc.area = Location::kRoot;
  } else if (seg[0] == "format" || seg[0] == "game" || seg[0] == "size") {
    loc.area = Location::kMeta;
  } else if (seg[0] == "spans") {
    loc.area = Location::kSpans;
  } else if (seg[0] == "objects") {
    if (seg.size() == 1) {
      loc.area = Location::kAllObjects;
    } else {
      loc.area = Location::kObject;
      loc.piece = find_key(seg[1]);
    }
  } else {
    fail(absl::StrFormat("the document has no member \"%s\" (format, game, size, objects, spans)", seg[0]));
  }
  return loc;
}

Engine::State& Engine::state(std::size_t piece) {
  auto [it, inserted] = states_.try_emplace(piece);
  if (inserted) it->second.object = parse_piece(level_, level_.pieces[piece]);
  return it->second;
}

Document& Engine::dom(std::size_t piece) {
  State& s = state(piece);
  if (!s.dom_valid) {
    object_dom(s.object, level_.pieces[piece], s.dom);
    s.dom_valid = true;
    if (!s.have_skeleton) {
      std::string path;
      class_skeleton(s.dom, path, s.skeleton);
      s.have_skeleton = true;
    }
  }
  return s.dom;
}

void Engine::build_document(Document& out, bool objects, bool spans) {
  auto generate = [&](Document& handler) {
    JsonWriter<Document> w(handler);
    w.start_object();
    w.key("format");
    w.string("anvilrt/1");
    w.key("game");
    w.string(game_name(level_.game));
    w.key("size");
    w.number(level_.bytes.size());
    if (objects) {
      w.key("objects");
      w.start_object();
      for (std::size_t i = 0; i < level_.pieces.size(); ++i) {
        const Piece& p = level_.pieces[i];
        if (!p.is_object()) continue;
        auto it = states_.find(i);
        Object parsed;
        const Object& object = it != states_.end() ? it->second.object : (parsed = parse_piece(level_, p));
        write_object_json(w, object_key(p, level_.game), {p.offset, p.length}, object);
      }
      w.end_object();
    }
    if (spans) {
      w.key("spans");
      w.start_array();
      for (const Piece& p : level_.pieces) {
        w.start_object();
        w.key("offset");
        w.number(p.offset);
        if (p.is_object()) {
          w.key("object");
          w.string(object_key(p, level_.game));
        } else {
          w.key("opaque");
          auto span = level_.bytes.subspan(p.offset, p.length);
          w.string(absl::Base64Escape({reinterpret_cast<const char*>(span.data()), span.size()}));
        }
        w.end_object();
      }
      w.end_array();
    }
    w.end_object();
    return true;
  };
  out.Populate(generate);
}

// `test` and the `from` of `copy` may read the whole document; only an object's fields are materialized
// cheaply, the rest (spans, all objects) is built on demand.
const Value& Engine::read(const Location& loc) {
  const Value* v = nullptr;
  if (loc.area == Location::kObject) {
    v = find(dom(loc.piece), loc.segments, 2);
  } else {
    bool objects = loc.area == Location::kRoot || loc.area == Location::kAllObjects;
    bool spans = loc.area == Location::kRoot || loc.area == Location::kSpans;
    build_document(scratch_, objects, spans);
    v = find(scratch_, loc.segments, 0);
  }
  if (v == nullptr) fail("points to nothing in the document");
  return *v;
}

// Only the fields of objects may change (FORMAT.md 5); everything else is read-only.
void Engine::require_modifiable(const Location& loc, std::string_view what) {
  switch (loc.area) {
    case Location::kRoot:
      fail(absl::StrFormat("%s of the whole document is refused: only the fields of objects can change", what));
    case Location::kMeta:
      fail(absl::StrFormat("\"%s\" is read-only: only the fields of objects can change", loc.segments[0]));
    case Location::kSpans:
      fail("\"spans\" are read-only: opaque bytes cannot be patched");
    case Location::kAllObjects:
      fail("objects cannot be added or removed (FORMAT.md section 1)");
    case Location::kObject:
      break;
  }
  for (std::size_t i = 2; i < loc.segments.size(); ++i)
    if (is_structural_member(loc.segments[i])) fail(absl::StrFormat("\"%s\" cannot be patched", loc.segments[i]));
}

// Re-reads the object from its edited JSON exactly as `build` would, refuses a changed offset, length,
// class or size, and makes the typed object and a canonical DOM current.
void Engine::validate(std::size_t piece) {
  State& s = state(piece);
  const Piece& p = level_.pieces[piece];
  Document& d = s.dom;
  std::string base = key_pointer(piece);
  if (!d.IsObject()) fail(absl::StrFormat("%s: must be an object", base));
  auto member_is = [&](const char* name, u64 expected) {
    auto it = d.FindMember(name);
    if (it == d.MemberEnd() || !it->value.IsUint64() || it->value.GetUint64() != expected)
      fail(absl::StrFormat("%s/%s: must stay %d (cannot be patched)", base, name, expected));
  };
  member_is("offset", p.offset);
  member_is("length", p.length);
  Object next;
  if (auto failure = read_object_json(d, level_.game, base, next)) fail(failure->message());
  if (class_name(next) != class_name(s.object)) fail(absl::StrFormat("%s/class: cannot be patched", base));
  std::vector<std::string> skeleton;
  std::string path;
  class_skeleton(d, path, skeleton);
  if (skeleton != s.skeleton) {
    std::size_t i = 0;
    while (i < skeleton.size() && i < s.skeleton.size() && skeleton[i] == s.skeleton[i]) ++i;
    std::string where = i < s.skeleton.size() ? s.skeleton[i] : skeleton[i];
    fail(absl::StrFormat("%s%s: a class or a null pointer cannot be patched (was %s)", base,
                         where.substr(0, where.rfind('=')), where.substr(where.rfind('=') + 1)));
  }
  std::vector<u8> bytes;
  encode_object(next, bytes);
  if (bytes.size() != p.length)
    fail(
        absl::StrFormat("%s: would resize the object from %d to %d bytes (objects inside a carved file keep their "
                        "size, FORMAT.md section 1)",
                        base, p.length, bytes.size()));
  s.object = std::move(next);
  s.edited = true;
  object_dom(s.object, p, s.dom);  // canonical again: 0.1 becomes the f32 0.1f, ids lowercase
}

// ---------------------------------------------------------------------------------------------------
// RFC 6902

void Engine::op_test(const Location& loc, const Value& value) {
  const Value& current = read(loc);
  bool equal = false;
  bool plain = loc.area != Location::kObject || (loc.segments.size() > 2 && is_structural_member(loc.segments.back()));
  if (plain) {
    equal = json_equal(current, value);
  } else {
    // Read the value as the field it would land on, then compare the encodings bit for bit.
    Document& d = dom(loc.piece);
    Document candidate;
    candidate.CopyFrom(d, candidate.GetAllocator());
    Value copy(value, candidate.GetAllocator());
    Value* target = const_cast<Value*>(find(candidate, loc.segments, 2));
    *target = copy;
    std::string base = key_pointer(loc.piece);
    if (loc.segments.size() == 2) {
      for (const char* name : {"offset", "length", "class"}) {
        auto a = candidate.FindMember(name);
        if (a == candidate.MemberEnd() || !json_equal(a->value, d[name]))
          fail(absl::StrFormat("test failed: \"%s\" is %s", name, short_text(d[name])), kTestFailed);
      }
    }
    Object read_back;
    if (auto failure = read_object_json(candidate, level_.game, base, read_back))
      fail("test value: " + failure->message());
    equal = same_object(read_back, state(loc.piece).object);
  }
  if (!equal)
    fail(absl::StrFormat("test failed: the value is %s, not %s", short_text(current), short_text(value)), kTestFailed);
  record("test", make_pointer(loc.segments, loc.segments.size()), to_text(current), "");
}

void Engine::dom_add(Document& doc, const std::vector<std::string>& seg, Value& value) {
  if (seg.size() == 2) {  // the whole object
    static_cast<Value&>(doc) = value;
    return;
  }
  std::vector<std::string> parent_seg(seg.begin(), seg.end() - 1);
  Value* parent = const_cast<Value*>(find(doc, parent_seg, 2));
  if (parent == nullptr) fail("points to nothing in the document (its parent does not exist)");
  const std::string& last = seg.back();
  auto& alloc = doc.GetAllocator();
  if (parent->IsObject()) {
    auto it = parent->FindMember(rapidjson::StringRef(last.data(), last.size()));
    if (it != parent->MemberEnd())
      it->value = value;
    else
      parent->AddMember(Value(last.data(), static_cast<rapidjson::SizeType>(last.size()), alloc), value, alloc);
  } else if (parent->IsArray()) {
    std::size_t size = parent->Size();
    std::size_t index = size;
    if (last != "-") {
      auto i = parse_index(last);
      if (!i) fail(absl::StrFormat("\"%s\" is not an array index (0, 1, ... or \"-\")", last));
      if (*i > size) fail(absl::StrFormat("array index %d out of range (the array has %d)", *i, size));
      index = *i;
    }
    parent->PushBack(value, alloc);
    for (std::size_t i = size; i > index; --i) (*parent)[i].Swap((*parent)[i - 1]);
  } else {
    fail("points into a value that is neither an object nor an array");
  }
}

Value Engine::dom_remove(Document& doc, const std::vector<std::string>& seg) {
  std::vector<std::string> parent_seg(seg.begin(), seg.end() - 1);
  Value* parent = const_cast<Value*>(find(doc, parent_seg, 2));
  const std::string& last = seg.back();
  Value removed;
  if (parent != nullptr && parent->IsObject()) {
    auto it = parent->FindMember(rapidjson::StringRef(last.data(), last.size()));
    if (it == parent->MemberEnd()) fail("points to nothing in the document");
    removed = it->value;
    parent->EraseMember(it);
  } else if (parent != nullptr && parent->IsArray()) {
    auto i = parse_index(last);
    if (!i || *i >= parent->Size()) fail("points to nothing in the document (array index out of range)");
    removed = (*parent)[static_cast<rapidjson::SizeType>(*i)];
    parent->Erase(parent->Begin() + *i);
  } else {
    fail("points to nothing in the document");
  }
  return removed;
}

void Engine::modify(const std::string& op, const Location& loc, const Location* from, const Value* value) {
  require_modifiable(loc, op);
  std::string pointer = make_pointer(loc.segments, loc.segments.size());
  Document& target = dom(loc.piece);
  const Value* before = find(target, loc.segments, 2);
  std::string old_text = before ? to_text(*before) : "";
  if (op == "remove") {
    if (loc.segments.size() == 2) fail("an object cannot be removed (FORMAT.md section 1)");
    dom_remove(target, loc.segments);
    validate(loc.piece);
    record(op, pointer, old_text, "");
    return;
  }
  if (op == "replace" && before == nullptr) fail("points to nothing in the document (replace needs a value there)");
  Value incoming;
  std::string from_pointer, from_old;
  if (op == "move") {
    require_modifiable(*from, op);
    if (from->piece == loc.piece && from->segments.size() <= loc.segments.size() &&
        std::equal(from->segments.begin(), from->segments.end(), loc.segments.begin()) &&
        from->segments.size() < loc.segments.size())
      fail("\"from\" is a parent of \"path\": a value cannot move into itself");
    if (from->segments.size() == 2) fail("an object cannot be removed (FORMAT.md section 1)");
    Document& source = dom(from->piece);
    from_pointer = make_pointer(from->segments, from->segments.size());
    if (const Value* f = find(source, from->segments, 2)) from_old = to_text(*f);
    Value removed = dom_remove(source, from->segments);
    incoming.CopyFrom(removed, target.GetAllocator());
  } else if (op == "copy") {
    incoming.CopyFrom(read(*from), target.GetAllocator());
  } else {
    incoming.CopyFrom(*value, target.GetAllocator());
  }
  if (op == "replace" && loc.segments.size() > 2)
    *const_cast<Value*>(find(target, loc.segments, 2)) = incoming;
  else
    dom_add(target, loc.segments, incoming);
  if (op == "move" && from->piece != loc.piece) validate(from->piece);
  validate(loc.piece);
  const Value* after = find(dom(loc.piece), loc.segments, 2);
  if (op == "move" && from_pointer != pointer) {
    const Value* left = find(dom(from->piece), from->segments, 2);
    record(op, from_pointer, from_old, left ? to_text(*left) : "");
  }
  record(op, pointer, old_text, after ? to_text(*after) : "");
}

// ---------------------------------------------------------------------------------------------------
// Bulk operations

Object Engine::typed(std::size_t piece) {
  auto it = states_.find(piece);
  if (it != states_.end()) return it->second.object;
  return parse_piece(level_, level_.pieces[piece]);
}

void Engine::commit(std::size_t piece, Object&& object) {
  State& s = state(piece);
  s.object = std::move(object);
  s.edited = true;
  s.dom_valid = false;
}

void check_members(const Value& op, std::initializer_list<const char*> allowed) {
  for (auto& m : op.GetObject()) {
    std::string_view name(m.name.GetString(), m.name.GetStringLength());
    bool ok = false;
    for (const char* a : allowed) ok = ok || name == a;
    if (!ok) fail(absl::StrFormat("unknown member \"%s\" for this operation", name));
  }
}

const Value* optional_member(const Value& op, const char* name) {
  auto it = op.FindMember(name);
  return it == op.MemberEnd() ? nullptr : &it->value;
}

const Value& required_member(const Value& op, const char* name) {
  const Value* v = optional_member(op, name);
  if (v == nullptr) fail(absl::StrFormat("missing member \"%s\"", name));
  return *v;
}

u64 id_member(const Value& v, const char* name, std::size_t width) {
  std::optional<u64> id;
  if (v.IsString()) id = json_text::parse_id({v.GetString(), v.GetStringLength()}, width);
  if (!id)
    fail(absl::StrFormat("\"%s\" must be an id \"0x\" + %d hex digits (found %s)", name, 2 * width, short_text(v)));
  return *id;
}

// A number rounded to the nearest f32, or "f32:0x…" bits, as the JSON reader takes an f32 field.
f32 f32_member(const Value& v, const std::string& name) {
  if (v.IsString()) {
    if (auto bits = json_text::parse_f32_bits({v.GetString(), v.GetStringLength()})) return *bits;
  } else if (v.IsNumber()) {
    double d = v.GetDouble();
    if (std::fabs(d) < 0x1.ffffffp127) return static_cast<f32>(d);
    fail(absl::StrFormat("\"%s\" must be within the f32 range (found %s)", name, short_text(v)));
  }
  fail(absl::StrFormat("\"%s\" must be a number or \"f32:0x\" + 8 hex digits (found %s)", name, short_text(v)));
}

u64 uint_member(const Value& v, const char* name, u64 max) {
  if (!v.IsUint64() || v.GetUint64() > max)
    fail(absl::StrFormat("\"%s\" must be an integer 0..%d (found %s)", name, max, short_text(v)));
  return v.GetUint64();
}

std::vector<std::size_t> Engine::objects_member(const Value& op, bool allow_star, bool required) {
  const Value* v = optional_member(op, "objects");
  std::vector<std::size_t> pieces;
  if (v == nullptr && required) fail("missing member \"objects\"");
  if (v == nullptr || (allow_star && v->IsString() && std::string_view(v->GetString()) == "*")) {
    for (std::size_t i = 0; i < level_.pieces.size(); ++i)
      if (level_.pieces[i].is_object()) pieces.push_back(i);
    return pieces;
  }
  if (!v->IsArray())
    fail(allow_star ? "\"objects\" must be an array of object keys or \"*\""
                    : "\"objects\" must be an array of object keys");
  absl::flat_hash_set<std::size_t> seen;
  for (auto& item : v->GetArray()) {
    if (!item.IsString()) fail(absl::StrFormat("\"objects\" must hold object keys (found %s)", short_text(item)));
    std::string key(item.GetString(), item.GetStringLength());
    std::size_t piece = find_key(key);
    if (!seen.insert(piece).second) fail(absl::StrFormat("\"objects\" lists \"%s\" twice", key));
    pieces.push_back(piece);
  }
  std::sort(pieces.begin(), pieces.end());
  return pieces;
}

void require_game(Game actual, Game needed, const char* op) {
  if (actual != needed)
    fail(absl::StrFormat("%s is an %s operation (this file is %s)", op, game_name(needed), game_name(actual)));
}

void Engine::op_swap_material(const Value& op) {
  check_members(op, {"op", "from", "to", "source", "mode", "objects"});
  require_game(level_.game, Game::ac2, "swap_material");
  u64 from = id_member(required_member(op, "from"), "from", 8);
  u64 to = id_member(required_member(op, "to"), "to", 8);
  std::optional<u64> source;
  if (const Value* v = optional_member(op, "source")) source = id_member(*v, "source", 8);
  std::optional<u8> mode;
  if (const Value* v = optional_member(op, "mode")) mode = static_cast<u8>(uint_member(*v, "mode", 255));
  std::vector<std::size_t> pieces = objects_member(op, false, false);
  std::size_t matches = 0;
  Releaser passed(options_.release_input);
  for (std::size_t piece : pieces) {
    passed.done_before(level_.pieces[piece].offset);
    Object object = typed(piece);
    auto* visual = std::get_if<ac2::Visual>(&object);
    if (visual == nullptr || !visual->instance) continue;
    std::size_t here = 0;
    std::string base = key_pointer(piece) + "/instance";
    auto swap = [&](ac2::MeshInstanceData& mesh, const std::string& prefix) {
      for (std::size_t j = 0; j < mesh.materials.size(); ++j) {
        ac2::MaterialInfo& info = mesh.materials[j];
        if (info.replacement.value != from || (source && info.source.value != *source)) continue;
        std::string p = absl::StrFormat("%s/materials/%d/", prefix, j);
        record("swap_material", p + "replacement", id_text(info.replacement.value, 8), id_text(to, 8));
        info.replacement.value = to;
        if (mode) {
          record("swap_material", p + "mode", std::to_string(info.mode), std::to_string(*mode));
          info.mode = *mode;
        }
        ++here;
      }
    };
    if (auto* lod = std::get_if<ac2::LODSelectorInstance>(&visual->instance->body)) {
      for (std::size_t i = 0; i < lod->slots.size(); ++i)
        if (lod->slots[i])
          if (auto* mesh = std::get_if<ac2::MeshInstanceData>(&lod->slots[i]->body))
            swap(*mesh, absl::StrFormat("%s/slots/%d", base, i));
    } else if (auto* mesh = std::get_if<ac2::MeshInstanceData>(&visual->instance->body)) {
      swap(*mesh, base);
    }
    if (here > 0) commit(piece, std::move(object));
    matches += here;
  }
  if (matches == 0)
    fail(absl::StrFormat("matched no material info with replacement %s%s", json_text::format_id(from, 8),
                         source ? " and source " + json_text::format_id(*source, 8) : ""),
         kTestFailed);
}

void Engine::op_transform(const Value& op) {
  check_members(op, {"op", "objects", "translate", "matrix"});
  require_game(level_.game, Game::ac2, "transform");
  const Value* translate = optional_member(op, "translate");
  const Value* matrix = optional_member(op, "matrix");
  if ((translate == nullptr) == (matrix == nullptr)) fail("needs exactly one of \"translate\" and \"matrix\"");
  std::array<f32, 3> t{};
  Matrix a{};
  if (translate) {
    if (!translate->IsArray() || translate->Size() != 3) fail("\"translate\" must be an array of 3 numbers");
    for (rapidjson::SizeType i = 0; i < 3; ++i) t[i] = f32_member((*translate)[i], absl::StrFormat("translate/%d", i));
  } else {
    if (!matrix->IsArray() || matrix->Size() != 16) fail("\"matrix\" must be an array of 16 numbers (column-major)");
    for (rapidjson::SizeType i = 0; i < 16; ++i) a[i] = f32_member((*matrix)[i], absl::StrFormat("matrix/%d", i));
  }
  std::vector<std::size_t> pieces = objects_member(op, false, true);
  if (pieces.empty()) fail("\"objects\" is empty");
  std::size_t matches = 0;
  Releaser passed(options_.release_input);
  for (std::size_t piece : pieces) {
    passed.done_before(level_.pieces[piece].offset);
    Object object = typed(piece);
    auto* visual = std::get_if<ac2::Visual>(&object);
    if (visual == nullptr) fail(absl::StrFormat("%s is not a Visual", key_pointer(piece)));
    if (!visual->instance) continue;
    std::size_t here = 0;
    std::string base = key_pointer(piece) + "/instance";
    auto apply = [&](std::vector<Matrix>& matrices, const std::string& prefix) {
      for (std::size_t j = 0; j < matrices.size(); ++j) {
        Matrix& m = matrices[j];
        Matrix before = m;
        if (translate) {
          // FORMAT.md 5: the f32 sum x + t, t rounded to f32 first.
          for (std::size_t i = 0; i < 3; ++i) m[12 + i] = before[12 + i] + t[i];
        } else {
          // matrix x M, column-major: R[r][c] = sum over k = 0..3 of A[r][k] * M[k][c], in double, in order,
          // rounded once.
          for (std::size_t c = 0; c < 4; ++c)
            for (std::size_t r = 0; r < 4; ++r) {
              double sum = static_cast<double>(a[0 * 4 + r]) * static_cast<double>(before[c * 4 + 0]);
              for (std::size_t k = 1; k < 4; ++k)
                sum += static_cast<double>(a[k * 4 + r]) * static_cast<double>(before[c * 4 + k]);
              m[c * 4 + r] = static_cast<f32>(sum);
            }
        }
        record("transform", absl::StrFormat("%s/instances/%d", prefix, j), matrix_text(before), matrix_text(m));
        ++here;
      }
    };
    if (auto* lod = std::get_if<ac2::LODSelectorInstance>(&visual->instance->body)) {
      apply(lod->instances, base);
      for (std::size_t i = 0; i < lod->slots.size(); ++i) {
        if (!lod->slots[i]) continue;
        std::string prefix = absl::StrFormat("%s/slots/%d", base, i);
        std::visit([&](auto& body) { apply(body.instances, prefix); }, lod->slots[i]->body);
      }
    } else if (auto* mesh = std::get_if<ac2::MeshInstanceData>(&visual->instance->body)) {
      apply(mesh->instances, base);
    }
    if (here > 0) commit(piece, std::move(object));
    matches += here;
  }
  if (matches == 0) fail("matched no instance matrix in the named objects", kTestFailed);
}

void Engine::op_switch_distance(const Value& op, bool scale) {
  const char* name = scale ? "scale_switch_distance" : "set_switch_distance";
  check_members(op, {"op", "objects", "slot", scale ? "factor" : "value"});
  require_game(level_.game, Game::sws, name);
  f32 operand =
      scale ? f32_member(required_member(op, "factor"), "factor") : f32_member(required_member(op, "value"), "value");
  std::optional<std::size_t> slot;
  if (const Value* v = optional_member(op, "slot")) slot = uint_member(*v, "slot", 4);
  const Value& objects = required_member(op, "objects");
  bool star = objects.IsString() && std::string_view(objects.GetString()) == "*";
  std::vector<std::size_t> pieces = objects_member(op, true, true);
  std::size_t matches = 0;
  Releaser passed(options_.release_input);
  for (std::size_t piece : pieces) {
    passed.done_before(level_.pieces[piece].offset);
    if (level_.pieces[piece].kind != kLODSelectorKind) {
      if (star) continue;
      fail(absl::StrFormat("%s is a Visual, not a LODSelector", key_pointer(piece)));
    }
    Object object = typed(piece);
    auto& selector = std::get<sws::LODSelector>(object);
    std::size_t here = 0;
    for (std::size_t i = 0; i < selector.slots.size(); ++i) {
      sws::LODDescriptor& d = selector.slots[i];
      if (slot ? i != *slot : d.object.value == 0) continue;
      f32 before = d.switch_distance;
      d.switch_distance = scale ? before * operand : operand;
      record(name, absl::StrFormat("%s/slots/%d/switch_distance", key_pointer(piece), i), f32_text(before),
             f32_text(d.switch_distance));
      ++here;
    }
    if (here > 0) commit(piece, std::move(object));
    matches += here;
  }
  if (matches == 0) fail(slot ? "matched no LODSelector" : "matched no used LODSelector slot", kTestFailed);
}

// ---------------------------------------------------------------------------------------------------

void Engine::run_op(std::size_t index, const Value& op, std::string& pointer) {
  op_index_ = index;
  if (!op.IsObject()) fail("an operation must be a JSON object");
  {
    absl::flat_hash_set<std::string_view> names;
    for (auto& m : op.GetObject())
      if (!names.insert({m.name.GetString(), m.name.GetStringLength()}).second)
        fail(absl::StrFormat("member \"%s\" given twice",
                             std::string_view(m.name.GetString(), m.name.GetStringLength())));
  }
  const Value* name_value = optional_member(op, "op");
  if (name_value == nullptr || !name_value->IsString()) fail("missing \"op\" (a string)");
  std::string name(name_value->GetString(), name_value->GetStringLength());
  pointer = name;
  if (name == "swap_material") return op_swap_material(op);
  if (name == "transform") return op_transform(op);
  if (name == "set_switch_distance") return op_switch_distance(op, false);
  if (name == "scale_switch_distance") return op_switch_distance(op, true);
  bool known =
      name == "test" || name == "replace" || name == "add" || name == "remove" || name == "move" || name == "copy";
  if (!known)
    fail(
        absl::StrFormat("unknown op \"%s\" (test, replace, add, remove, move, copy, swap_material, transform, "
                        "set_switch_distance, scale_switch_distance)",
                        name));
  // RFC 6902: members not defined for the operation are ignored.
  const Value* path = optional_member(op, "path");
  if (path == nullptr || !path->IsString()) fail("missing \"path\" (a JSON pointer string)");
  pointer.assign(path->GetString(), path->GetStringLength());
  Location loc = locate(pointer);
  if (name == "remove") return modify(name, loc, nullptr, nullptr);
  if (name == "move" || name == "copy") {
    const Value* from = optional_member(op, "from");
    if (from == nullptr || !from->IsString()) fail("missing \"from\" (a JSON pointer string)");
    Location from_loc = locate({from->GetString(), from->GetStringLength()});
    if (name == "move" && from_loc.segments == loc.segments) return;  // RFC 6902: a no-op
    return modify(name, loc, &from_loc, nullptr);
  }
  const Value* value = optional_member(op, "value");
  if (value == nullptr) fail("missing \"value\"");
  if (name == "test") return op_test(loc, *value);
  modify(name, loc, nullptr, value);
}

// The overlays: each edited object's encoding (states_ is ordered by piece, so `edited` ascends). The
// engine is done after this, so the objects move out and each DOM is freed as soon as it is passed.
PatchResult Engine::finish() {
  PatchResult result;
  for (auto& [piece, s] : states_) {
    Document().Swap(s.dom);
    if (!s.edited) continue;
    const Piece& p = level_.pieces[piece];
    std::vector<u8> encoded;
    encoded.reserve(p.length);
    encode_object(s.object, encoded);
    if (encoded.size() != p.length)
      fail(absl::StrFormat("%s: would resize the object from %d to %d bytes", key_pointer(piece), p.length,
                           encoded.size()));
    result.edited.push_back(piece);
    result.edited_objects.push_back(std::move(s.object));
    result.overlays.push_back(std::move(encoded));
  }
  result.changes = std::move(changes_);
  return result;
}

}  // namespace

std::optional<PatchError> check_patch_shape(const rapidjson::Value& patch) {
  auto whole = [](std::string reason) { return PatchError{PatchError::kWholePatch, "", std::move(reason), kBadPatch}; };
  if (!patch.IsArray()) return whole("a patch must be a JSON array of operations");
  if (depth_of(patch) > kMaxDepth) return whole(absl::StrFormat("nested deeper than %d levels", kMaxDepth));
  return std::nullopt;
}

PatchOutcome apply_patch(const Level& level, const rapidjson::Value& patch, const PatchOptions& options) {
  PatchOutcome outcome;
  if ((outcome.error = check_patch_shape(patch))) return outcome;
  Engine engine(level, options);
  std::size_t index = 0;
  std::string pointer;
  try {
    for (; index < patch.Size(); ++index) {
      pointer.clear();
      engine.run_op(index, patch[static_cast<rapidjson::SizeType>(index)], pointer);
    }
    index = PatchError::kWholePatch;
    outcome.result = engine.finish();
  } catch (const OpFailure& f) {
    outcome.error = PatchError{index, pointer, f.reason, f.exit_code};
  } catch (const std::exception& e) {
    outcome.error = PatchError{index, pointer, std::string("internal error: ") + e.what(), kBadPatch};
  }
  return outcome;
}

std::optional<PatchError> parse_patch_text(std::string_view patch_json, Document& doc) {
  if (auto at = misread_json_number(patch_json))
    return PatchError{PatchError::kWholePatch, "",
                      absl::StrFormat("a number that the JSON parser would misread (at byte %d)", *at), kBadPatch};
  doc.Parse<rapidjson::kParseFullPrecisionFlag | rapidjson::kParseIterativeFlag>(patch_json.data(), patch_json.size());
  if (doc.HasParseError())
    return PatchError{PatchError::kWholePatch, "",
                      absl::StrFormat("not JSON: %s (at byte %d)", rapidjson::GetParseError_En(doc.GetParseError()),
                                      doc.GetErrorOffset()),
                      kBadPatch};
  return std::nullopt;
}

PatchOutcome apply_patch_text(const Level& level, std::string_view patch_json, const PatchOptions& options) {
  Document doc;
  if (auto error = parse_patch_text(patch_json, doc)) {
    PatchOutcome outcome;
    outcome.error = std::move(error);
    return outcome;
  }
  return apply_patch(level, doc, options);
}

std::vector<u8> patched_bytes(const Level& original, const PatchResult& result) {
  if (result.overlays.size() != result.edited.size())
    throw std::logic_error("a patch result with overlays that do not pair up with its edited pieces");
  std::vector<u8> bytes(original.bytes.begin(), original.bytes.end());
  for (std::size_t i = 0; i < result.edited.size(); ++i) {
    const Piece& p = original.pieces.at(result.edited[i]);
    const std::vector<u8>& overlay = result.overlays[i];
    if (overlay.size() != p.length) throw std::logic_error("an overlay does not have its piece's length");
    std::memcpy(bytes.data() + p.offset, overlay.data(), overlay.size());
  }
  return bytes;
}

std::optional<std::string> check_written(const Level& original, const PatchResult& result, std::span<const u8> written,
                                         const ReleaseFn& release_original, const ReleaseFn& release_written) {
  if (written.size() != original.bytes.size())
    return absl::StrFormat("the output has %d bytes, not %d", written.size(), original.bytes.size());
  if (result.edited.size() != result.edited_objects.size())
    return "the patch result lists edited pieces and patched objects that do not pair up";
  // Carving reads ahead of the object it reports, hardly behind it (and a released page is only read
  // again, never lost).
  Releaser carved(release_written);
  Level reread = carve_as(original, written, [&](const Piece& p, const Object&) { carved.done_before(p.offset); });
  Releaser written_done(release_written), original_done(release_original);
  if (reread.pieces.size() != original.pieces.size())
    return absl::StrFormat("the output carves into %d pieces, not %d", reread.pieces.size(), original.pieces.size());
  std::size_t next_edited = 0;
  for (std::size_t i = 0; i < original.pieces.size(); ++i) {
    const Piece& a = original.pieces[i];
    const Piece& b = reread.pieces[i];
    if (a.offset != b.offset || a.length != b.length || a.kind != b.kind)
      return absl::StrFormat("the output carves differently at offset 0x%x", a.offset);
    if (next_edited < result.edited.size() && result.edited[next_edited] == i) {
      Object back = parse_piece(reread, b);
      if (!same_object(back, result.edited_objects[next_edited]))
        return absl::StrFormat("the object at offset 0x%x does not read back as patched", a.offset);
      ++next_edited;
    } else if (std::memcmp(original.bytes.data() + a.offset, written.data() + b.offset, a.length) != 0) {
      return absl::StrFormat("bytes at offset 0x%x changed that no operation edited", a.offset);
    }
    original_done.done_before(a.offset);
    written_done.done_before(a.offset);
  }
  if (next_edited != result.edited.size())
    return "the patch result's edited pieces are not ascending indices of this level's pieces";
  original_done.done_all(original.bytes.size());
  written_done.done_all(written.size());
  return std::nullopt;
}

}  // namespace anvil::patch
