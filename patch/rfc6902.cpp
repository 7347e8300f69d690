// The RFC 6902 operations on the document: each applies to the JSON as the RFC says (a `move` is a
// `remove` then an `add`, a `test` compares as section 4.6 says), and the objects whose JSON changed
// are then re-read as `build` reads them (Engine::revalidate). So an edit is accepted when the edited
// JSON is an object that `build` would accept, however it was reached, and refused for build's reason.
#include <absl/strings/str_format.h>

#include "patch/engine.hpp"
#include "patch/json_util.hpp"
#include "reader/json_messages.hpp"

namespace anvil::patch {
namespace {

// RFC 6902 4.1: the value goes into the member or array element the pointer names.
void dom_add(Document& doc, const std::vector<std::string>& seg, Value& value) {
  if (seg.size() == 2) {  // the whole object
    static_cast<Value&>(doc) = value;
    return;
  }
  std::vector<std::string> parent_seg(seg.begin(), seg.end() - 1);
  Value* parent = const_cast<Value*>(find(doc, parent_seg, 2));
  if (parent == nullptr)
    fail("points to nothing in the document (its parent does not exist)" + did_you_mean(doc, parent_seg, 2));
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

// RFC 6902 4.2: the member or element goes; later elements move down.
Value dom_remove(Document& doc, const std::vector<std::string>& seg) {
  std::vector<std::string> parent_seg(seg.begin(), seg.end() - 1);
  Value* parent = const_cast<Value*>(find(doc, parent_seg, 2));
  const std::string& last = seg.back();
  Value removed;
  if (parent != nullptr && parent->IsObject()) {
    auto it = parent->FindMember(rapidjson::StringRef(last.data(), last.size()));
    if (it == parent->MemberEnd()) fail("points to nothing in the document" + did_you_mean(doc, seg, 2));
    removed = it->value;  // moves it out
    parent->EraseMember(it);
  } else if (parent != nullptr && parent->IsArray()) {
    auto i = parse_index(last);
    if (!i || *i >= parent->Size()) fail("points to nothing in the document (array index out of range)");
    removed = (*parent)[static_cast<rapidjson::SizeType>(*i)];
    parent->Erase(parent->Begin() + *i);
  } else {
    fail("points to nothing in the document" + did_you_mean(doc, seg, 2));
  }
  return removed;
}

bool is_proper_prefix(const Location& a, const Location& b) {
  return a.area == b.area && a.piece == b.piece && a.segments.size() < b.segments.size() &&
         std::equal(a.segments.begin(), a.segments.end(), b.segments.begin());
}

}  // namespace

void Engine::op_test(const Location& loc, const Value& value) {
  const Value& current = read(loc);
  if (!json_equal(current, value))
    fail(absl::StrFormat("test failed: the value is %s, not %s", json_as_written(current, 120),
                         json_as_written(value, 120)),
         kTestFailed);
  record("test", loc.area == Location::kObject ? loc.piece : Change::kNoPiece,
         make_pointer(loc.segments, loc.segments.size()), json_as_written(current, 1u << 20), "");
}

// What a dry run reports an operation changed: the location itself, or, where an element was inserted
// into or removed from an array, the whole array (the elements after it moved).
Location Engine::changed_location(const Location& at, bool resizes) {
  Location out = at;
  if (resizes && at.segments.size() > 2) {
    std::vector<std::string> parent(at.segments.begin(), at.segments.end() - 1);
    const Value* v = find(dom(at.piece), parent, 2);
    if (v != nullptr && v->IsArray()) out.segments = std::move(parent);
  }
  return out;
}

// The text of a location for a dry run: as the object re-reads (what the file will hold), or as the
// operations left it while it does not.
std::string Engine::location_text(const Location& at) {
  State& s = state(at.piece);
  const Value* v = nullptr;
  Document canonical;
  if (s.broken) {
    v = find(dom(at.piece), at.segments, 2);
  } else {
    object_document(s.object, extent(at.piece), canonical);
    v = find(canonical, at.segments, 2);
  }
  return v ? to_text(*v) : "";
}

void Engine::modify(const std::string& op, const Location& loc, const Location* from, const Value* value) {
  require_modifiable(loc, op);
  if (op == "move") require_modifiable(*from, op);
  Document& target = dom(loc.piece);
  Value* before = const_cast<Value*>(find(target, loc.segments, 2));
  std::vector<std::pair<Location, std::string>> changed;  // for a dry run: where, and the text there before
  if (options_.record_changes) {
    if (op == "move") {
      Location at = changed_location(*from, true);
      changed.emplace_back(at, location_text(at));
    }
    Location at = changed_location(loc, op != "replace");
    if (changed.empty() || at.piece != changed[0].first.piece || at.segments != changed[0].first.segments)
      changed.emplace_back(at, location_text(at));
  }
  std::vector<std::size_t> touched{loc.piece};
  if (op == "remove") {
    if (loc.segments.size() == 2) fail("an object cannot be removed: the bytes around it would have to shrink");
    dom_remove(target, loc.segments);
  } else {
    if (op == "replace" && before == nullptr)
      fail("points to nothing in the document (replace needs a value there)" + did_you_mean(target, loc.segments, 2));
    Value incoming;
    if (op == "move") {
      if (is_proper_prefix(*from, loc)) fail("\"from\" is a parent of \"path\": a value cannot move into itself");
      if (from->segments.size() == 2) fail("an object cannot be removed: the bytes around it would have to shrink");
      Document& source = dom(from->piece);
      Value removed = dom_remove(source, from->segments);
      incoming.CopyFrom(removed, target.GetAllocator());
      touched.push_back(from->piece);
    } else if (op == "copy") {
      incoming.CopyFrom(read(*from), target.GetAllocator());
    } else {
      incoming.CopyFrom(*value, target.GetAllocator());
    }
    if (op == "replace")
      *before = incoming;
    else
      dom_add(target, loc.segments, incoming);
  }
  revalidate(touched);
  for (auto& [at, old_text] : changed)
    record(op, at.piece, make_pointer(at.segments, at.segments.size()), std::move(old_text), location_text(at));
}

}  // namespace anvil::patch
