// The editor's typed fields (serve/fields.hpp): the declaration's tree and the object's JSON walked
// together, as the reader reads the bytes.
#include "serve/fields.hpp"

#include <absl/strings/str_cat.h>
#include <absl/strings/str_join.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <set>
#include <vector>

#include "schema/catalog.hpp"

namespace anvil::serve {
namespace {

using describe::Kind;
using describe::Node;
using Writer = rapidjson::Writer<rapidjson::StringBuffer>;

struct Place {
  std::string pointer;
  std::string label;
};

Place member(const Place& at, const std::string& name) {
  return {at.pointer + "/" + name, at.label.empty() ? name : at.label + "." + name};
}
Place element(const Place& at, std::size_t i) {
  return {absl::StrCat(at.pointer, "/", i), absl::StrCat(at.label, "[", i, "]")};
}

class Rows {
 public:
  explicit Rows(Writer& w) : w_(w) {}

  void row(const Place& at, std::string_view kind, std::string_view type, const rapidjson::Value* value, bool editable,
           const std::string& note) {
    w_.StartObject();
    w_.Key("pointer");
    w_.String(at.pointer);
    w_.Key("label");
    w_.String(at.label);
    w_.Key("kind");
    w_.String(kind.data(), static_cast<rapidjson::SizeType>(kind.size()));
    w_.Key("type");
    w_.String(type.data(), static_cast<rapidjson::SizeType>(type.size()));
    w_.Key("value");
    if (value != nullptr)
      value->Accept(w_);
    else
      w_.Null();
    w_.Key("editable");
    w_.Bool(editable);
    w_.Key("note");
    w_.String(note);
    w_.EndObject();
  }

  // The node `n` whose JSON is `v` (null when absent), at `at`.
  void walk(const Node& n, const rapidjson::Value* v, const Place& at) {
    const std::string note = absl::StrJoin(n.checks, "; ");
    switch (n.kind) {
      case Kind::kScalar:
        return row(at, "scalar", n.type, v, v != nullptr, note);
      case Kind::kId:
        return row(at, "id", n.type, v, v != nullptr, note);
      case Kind::kText:
        return row(at, "text", "text", v, false, note);
      case Kind::kOpaque:
      case Kind::kBytes:
      case Kind::kUntilTail:
      case Kind::kRestBytes:
      case Kind::kSizedBytes:
        return row(at, "hex", "bytes", v, false, "kept as read (unknown bytes)");
      case Kind::kConstant:
        if (n.shown) row(at, "constant", n.type, v, false, absl::StrCat("checked constant ", n.constant, ": ", n.what));
        return;
      case Kind::kSizeOf:
        return;
      case Kind::kPointer:
        if (v == nullptr || v->IsNull()) return row(at, "none", "pointer", v, false, "no object here");
        return walk(n.children[0], v, at);
      case Kind::kArray:
        if (n.count == 16 && n.children[0].kind == Kind::kScalar && n.children[0].type == "f32")
          return row(at, "matrix", "f32[16]", v, v != nullptr && v->IsArray(), note);
        [[fallthrough]];
      case Kind::kCounted:
      case Kind::kEachFollowedBy:
      case Kind::kUntilEnd:
        if (v == nullptr || !v->IsArray()) return row(at, "other", "array", v, false, note);
        for (rapidjson::SizeType i = 0; i < v->Size(); ++i) walk(n.children[0], &(*v)[i], element(at, i));
        return;
      default:
        break;
    }
    if (v == nullptr || !v->IsObject()) return row(at, "other", n.type, v, false, note);
    std::set<std::string> seen;
    members(n, *v, at, seen);
    for (auto m = v->MemberBegin(); m != v->MemberEnd(); ++m)
      if (!seen.count(m->name.GetString()))
        row(member(at, m->name.GetString()), "other", "json", &m->value, false, "not in the declaration");
  }

 private:
  Writer& w_;

  // The fields of a structure (or of a form, an alternative) inside the JSON object `v`.
  void members(const Node& n, const rapidjson::Value& v, const Place& at, std::set<std::string>& seen) {
    for (const Node& c : n.children) {
      switch (c.kind) {
        case Kind::kGroup:
          members(c, v, at, seen);
          continue;
        case Kind::kEither:
          members(present_form(c, v), v, at, seen);
          continue;
        case Kind::kSwitch:
          alternative(c, v, at, seen);
          continue;
        case Kind::kPresentIf:
          if (!c.name.empty() && v.HasMember(c.name.c_str())) break;
          members(c.children[0], v, at, seen);
          continue;
        default:
          break;
      }
      if (c.name.empty() || (c.kind == Kind::kConstant && !c.shown) || c.kind == Kind::kSizeOf) continue;
      seen.insert(c.name);
      auto m = v.FindMember(c.name.c_str());
      const Node& field = c.kind == Kind::kPresentIf ? c.children[0] : c;
      walk(field, m == v.MemberEnd() ? nullptr : &m->value, member(at, c.name));
    }
  }

  // The form of an either() whose first named field the JSON holds.
  static const Node& present_form(const Node& either, const rapidjson::Value& v) {
    for (const Node& c : either.children[0].children)
      if (!c.name.empty() && c.shown) return v.HasMember(c.name.c_str()) ? either.children[0] : either.children[1];
    return either.children[0];
  }

  // A class switch: "class" names the alternative, whose fields follow inline.
  void alternative(const Node& s, const rapidjson::Value& v, const Place& at, std::set<std::string>& seen) {
    seen.insert("class");
    auto c = v.FindMember("class");
    row(member(at, "class"), "class", "class", c == v.MemberEnd() ? nullptr : &c->value, false,
        "what the slot holds: changed by replacing the whole object, not here");
    if (c == v.MemberEnd() || !c->value.IsString()) return;
    std::string name = c->value.GetString();
    const describe::Alternative* pick = nullptr;
    for (const describe::Alternative& a : s.alternatives) {
      std::string type = a.body->type;
      std::string bare = type.substr(type.rfind(':') == std::string::npos ? 0 : type.rfind(':') + 1);
      if (a.class_id && bare == name) pick = &a;
      if (!a.class_id && pick == nullptr) pick = &a;
    }
    if (pick != nullptr) members(*pick->body, v, at, seen);
  }
};

const Node* top_level(Game game, std::string_view class_name) {
  static const std::vector<schema::TopLevel> tops = schema::top_levels();
  for (const schema::TopLevel& t : tops)
    if (t.dialect == game_name(game) && t.name == class_name) return &t.layout;
  return nullptr;
}

}  // namespace

std::string field_rows(const rapidjson::Value& object_json, Game game) {
  rapidjson::StringBuffer buffer;
  Writer w(buffer);
  Rows rows(w);
  w.StartArray();
  if (object_json.IsObject()) {
    std::set<std::string> place{"offset", "length", "class"};
    for (const char* name : {"offset", "length", "class"}) {
      auto m = object_json.FindMember(name);
      if (m != object_json.MemberEnd())
        rows.row(member({}, name), "constant", "place", &m->value, false, "where the object lies, and what it is");
    }
    auto c = object_json.FindMember("class");
    const Node* layout =
        c != object_json.MemberEnd() && c->value.IsString() ? top_level(game, c->value.GetString()) : nullptr;
    if (layout != nullptr) {
      // The declaration's own fields, then anything else the JSON holds.
      rapidjson::Value copy;
      rapidjson::Document scratch;
      copy.CopyFrom(object_json, scratch.GetAllocator());
      for (const char* name : {"offset", "length", "class"}) copy.RemoveMember(name);
      rows.walk(*layout, &copy, {});
    }
  }
  w.EndArray();
  return {buffer.GetString(), buffer.GetSize()};
}

}  // namespace anvil::serve
