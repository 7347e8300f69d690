// The document a patch addresses: pointers resolved to objects by their current keys, each object's
// JSON made on first use, the read-only parts built on demand, and the re-read that decides whether
// edited JSON is an object (the same check `build` makes, patch/dump_object.hpp).
#include <absl/strings/escaping.h>
#include <absl/strings/str_format.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <stdexcept>

#include "model/json_text.hpp"
#include "patch/dump_object.hpp"
#include "patch/engine.hpp"
#include "patch/json_util.hpp"
#include "writer/document_json.hpp"
#include "writer/json_text_handler.hpp"
#include "writer/json_writer.hpp"
#include "writer/object_json.hpp"

namespace anvil::patch {

void fail(std::string reason, int exit_code) { throw OpFailure{std::move(reason), exit_code}; }
void fail_malformed(std::string reason) { throw OpFailure{std::move(reason), kBadPatch, {}, {}, true}; }

namespace {
bool is(const std::string& segment, Key member) { return segment == document::text(member); }
}  // namespace

std::string Engine::key_pointer(std::size_t piece) const {
  return "/" + std::string(document::text(document::kObjects)) + "/" + escape_segment(keys_.key(piece));
}

Location Engine::locate(const std::string& pointer) {
  auto segments = parse_pointer(pointer);
  if (!segments) fail("not a JSON pointer (RFC 6901: \"\" or \"/\" segments, \"~0\" and \"~1\" escapes)");
  Location loc;
  loc.segments = std::move(*segments);
  const auto& seg = loc.segments;
  if (seg.empty()) {
    loc.area = Location::kRoot;
  } else if (is(seg[0], document::kFormat) || is(seg[0], document::kGame) || is(seg[0], document::kSize)) {
    loc.area = Location::kMeta;
  } else if (is(seg[0], document::kSpans)) {
    loc.area = Location::kSpans;
  } else if (is(seg[0], document::kObjects)) {
    if (seg.size() == 1) {
      loc.area = Location::kAllObjects;
    } else {
      loc.area = Location::kObject;
      auto piece = keys_.find(seg[1]);
      if (!piece) fail(absl::StrFormat("no object with key \"%s\" in this file", seg[1]));
      loc.piece = *piece;
    }
  } else {
    fail(absl::StrFormat("the document has no member \"%s\" (%s)", seg[0], document::list(document::kLevelMembers)));
  }
  return loc;
}

Engine::State& Engine::state(std::size_t piece) {
  auto [it, inserted] = states_.try_emplace(piece);
  if (inserted) {
    it->second.object = parse_piece(level_, level_.pieces[piece]);
    it->second.length = level_.pieces[piece].length;
  }
  return it->second;
}

Extent Engine::extent(std::size_t piece) {
  auto it = states_.find(piece);
  const Piece& p = level_.pieces[piece];
  return {p.offset, it == states_.end() ? p.length : it->second.length};
}

Document& Engine::dom(std::size_t piece) {
  State& s = state(piece);
  if (!s.dom_valid) {
    object_document(s.object, extent(piece), s.dom);
    s.dom_valid = true;
  }
  return s.dom;
}

// The parts of the document outside the objects' JSON, as `dump --full` prints them, with the objects
// as the patch has left them so far.
void Engine::build_document(Document& out, bool objects, bool spans) {
  rapidjson::StringBuffer buffer;
  {
    JsonTextHandler<rapidjson::StringBuffer> handler(buffer);
    JsonWriter<JsonTextHandler<rapidjson::StringBuffer>> w(handler);
    w.start_object();
    write_document_head(w, level_.game, level_.bytes.size());
    if (objects) {
      write_key(w, document::kObjects);
      w.start_object();
      for (std::size_t i = 0; i < level_.pieces.size(); ++i) {
        const Piece& p = level_.pieces[i];
        if (!p.is_object()) continue;
        auto it = states_.find(i);
        if (it != states_.end() && it->second.dom_valid) {
          w.key(keys_.key(i));  // its JSON is copied in below, not printed: printing could round its numbers
          handler.Null();
        } else {
          write_object_json(w, keys_.key(i), extent(i),
                            it != states_.end() ? it->second.object : parse_piece(level_, p));
        }
      }
      w.end_object();
    }
    if (spans) {
      write_key(w, document::kSpans);
      w.start_array();
      for (std::size_t i = 0; i < level_.pieces.size(); ++i)
        write_span(w, level_.pieces[i], level_.bytes, [&] { return keys_.key(i); });
      w.end_array();
    }
    w.end_object();
  }
  out.Parse<rapidjson::kParseFullPrecisionFlag>(buffer.GetString(), buffer.GetSize());
  if (out.HasParseError()) throw std::logic_error("the document does not parse back");
  if (!objects) return;
  Value& members = out[document::kObjects.text];
  for (auto& [piece, s] : states_) {
    if (!s.dom_valid) continue;
    std::string key = keys_.key(piece);
    members.FindMember(rapidjson::StringRef(key.data(), key.size()))->value.CopyFrom(s.dom, out.GetAllocator());
  }
}

// `test` and the `from` of `copy` may read the whole document; only an object's JSON is kept, the rest
// (spans, all objects) is built when read.
const Value& Engine::read(const Location& loc) {
  const Value* root = nullptr;
  std::size_t begin = 0;
  if (loc.area == Location::kObject) {
    root = &dom(loc.piece);
    begin = 2;
  } else {
    bool objects = loc.area == Location::kRoot || loc.area == Location::kAllObjects;
    bool spans = loc.area == Location::kRoot || loc.area == Location::kSpans;
    build_document(scratch_, objects, spans);
    root = &scratch_;
  }
  const Value* v = find(*root, loc.segments, begin);
  if (v == nullptr) fail("points to nothing in the document" + did_you_mean(*root, loc.segments, begin));
  return *v;
}

// Only the objects' JSON may change (FORMAT.md 5); everything else is read-only.
void Engine::require_modifiable(const Location& loc, std::string_view what) {
  switch (loc.area) {
    case Location::kRoot:
      fail(absl::StrFormat("%s of the whole document is refused: only the fields of objects can change", what));
    case Location::kMeta:
      fail(absl::StrFormat("\"%s\" is read-only: only the fields of objects can change", loc.segments[0]));
    case Location::kSpans:
      fail("\"spans\" are read-only: opaque bytes cannot be patched");
    case Location::kAllObjects:
      fail("objects cannot be added or removed: the bytes around them would have to grow or shrink");
    case Location::kObject:
      break;
  }
}

std::optional<std::string> Engine::reread(std::size_t piece, Object& out, std::size_t* length) {
  std::vector<u8> encoded;
  State& s = state(piece);
  std::optional<std::size_t> resize_from;
  if (resizable()) resize_from = s.length;
  auto failure =
      read_dump_object(s.dom, level_.game, key_pointer(piece), level_.pieces[piece].offset, out, encoded, resize_from);
  if (length) *length = encoded.size();
  return failure;
}

void Engine::revalidate(std::vector<std::size_t> pieces) {
  std::sort(pieces.begin(), pieces.end());
  pieces.erase(std::unique(pieces.begin(), pieces.end()), pieces.end());
  // Keys first: the re-read names the object by the key it has after this operation.
  for (std::size_t piece : pieces) {
    const Document& d = dom(piece);
    auto id = d.IsObject() ? d.FindMember("id") : Value::ConstMemberIterator();
    if (d.IsObject() && id != d.MemberEnd() && id->value.IsString())
      if (auto value = json_text::parse_id({id->value.GetString(), id->value.GetStringLength()}, keys_.id_width()))
        keys_.set_id(piece, *value);
  }
  for (std::size_t piece : pieces) {
    State& s = state(piece);
    Object next;
    std::size_t length = 0;
    if (auto reason = reread(piece, next, &length)) {
      // Attributed to the operation since which the object has failed for this reason.
      if (!s.broken || s.broken->reason != *reason) s.broken = Broken{op_index_, op_pointer_, std::move(*reason)};
      continue;
    }
    s.broken.reset();
    s.object = std::move(next);
    s.edited = true;
    if (length != s.length) {
      // The object's "length" follows its fields (FORGE.md 5), as dump would print it.
      s.length = length;
      if (auto it = s.dom.FindMember("length"); it != s.dom.MemberEnd()) it->value.SetUint64(length);
    }
  }
}

void Engine::fail_broken(const Broken& broken) const {
  throw OpFailure{broken.reason, kBadPatch, broken.op_index, broken.pointer};
}

}  // namespace anvil::patch
