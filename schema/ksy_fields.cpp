// The seq items of each kind of field of a declaration, for `anvilrt schema --ksy`; schema/ksy.cpp
// assembles them into types, and its top comment gives the names and shapes they take.
#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>
#include <absl/strings/str_join.h>

#include <algorithm>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "model/ac2/visual_tail.hpp"
#include "schema/catalog.hpp"
#include "schema/ksy_writer.hpp"
#include "schema/schema.hpp"

namespace anvil::schema::ksy {

using describe::Kind;

// One field of a declaration as the seq items (and instances) that read it. A kind whose Kaitai form
// takes more than a line or two has a member of its own below, named after what it emits.
void Writer::field(const Node& f, Type& t, int& unnamed) {
  switch (f.kind) {
    case Kind::kScalar:
    case Kind::kId:
    case Kind::kOpaque:
    case Kind::kStruct:
      t.seq.push_back(item(f.name, value_attrs(f)));
      break;
    case Kind::kConstant:
      checked_constant(f, t, unnamed);
      break;
    case Kind::kArray:
      t.seq.push_back(item(f.name, repeated_attrs(f.children[0], absl::StrCat(f.count))));
      break;
    case Kind::kCounted:
      counted_fields(f, t);
      break;
    case Kind::kBytes:
      length_prefixed_fields(f, t);
      break;
    case Kind::kPointer:
      pointer_fields(f, t);
      break;
    case Kind::kSwitch:
      class_switch_fields(f, t);
      break;
    case Kind::kPresentIf:
      present_unless_at_end(f, t);
      break;
    case Kind::kUntilTail:
      bytes_up_to_visual_tail(f, t);
      break;
    case Kind::kEachFollowedBy:
      unrolled_values_with_classes(f, t);
      break;
    case Kind::kText:
      t.seq.push_back(item(f.name, {absl::StrCat("size: ", f.size), "doc: text padded with NULs"}));
      break;
    case Kind::kSizeOf:
      t.seq.push_back(
          item(f.name, {absl::StrCat("type: ", scalar(f.type)), absl::StrCat("doc: the size of ", f.sizes)}));
      break;
    case Kind::kSizedBytes:
      sized_bytes(f, t);
      break;
    case Kind::kHeads:
      table_heads_fields(f, t);
      break;
    case Kind::kBodies:
      table_bodies_field(f, t);
      break;
    case Kind::kRestBytes:
      t.seq.push_back(item(f.name, {"size-eos: true"}));
      break;
    case Kind::kUntilEnd:
      values_up_to_end(f, t);
      break;
    case Kind::kEither:
      if (!either_as_switched_type(f, t)) either_forms_under_conditions(f, t, unnamed);
      break;
    case Kind::kGroup:
      for (const Node& c : f.children) field(c, t, unnamed);
      break;
  }
}

// A checked value: `valid:` makes Kaitai refuse what anvilrt's reader refuses; a constant JSON does not
// show is named after its check (constant_name).
void Writer::checked_constant(const Node& f, Type& t, int& unnamed) {
  t.seq.push_back(item(constant_name(f, unnamed),
                       {absl::StrCat("type: ", scalar(f.type)),
                        absl::StrFormat("valid: '0x%0*x'", 2 * f.size, f.constant), absl::StrCat("doc: ", f.what)}));
}

// A structure present when earlier fields say so: the top-level type reads a stream of exactly the
// object's length, so "the bytes go on" is that condition (see the comment at the top).
void Writer::present_unless_at_end(const Node& f, Type& t) {
  t.seq.push_back(item(f.name, {absl::StrCat("type: ", kaitai_type_name(f.children[0].type)), "if: not _io.eof",
                                absl::StrCat("doc: present ", f.what, " (the object's bytes end without it)")}));
}

// Bytes up to the Visual tail: the tail has a fixed size and ends the object, so the run ends that many
// bytes before the stream does.
void Writer::bytes_up_to_visual_tail(const Node& f, Type& t) {
  t.seq.push_back(item(f.name, {absl::StrCat("size: _io.size - _io.pos - ",
                                             *describe::fixed_size(describe::describe_struct<ac2::VisualTail>())),
                                "doc: up to the Visual tail, which ends the object"}));
}

// A run of bytes whose length the declaration gives one of three ways: an expression of earlier fields,
// a size field (a kSizeOf before it, or a parameter from a table's head), or the field holding the
// offset it ends at.
void Writer::sized_bytes(const Node& f, Type& t) {
  t.seq.push_back(item(f.name, {!f.size_expr.empty() ? absl::StrCat("size: '", f.size_expr, "'")
                                : f.sized_by.empty() ? absl::StrCat("size: ", f.what, " - _io.pos")
                                                     : absl::StrCat("size: ", f.sized_by)}));
}

// Values up to the end of the stream, which is the end of the bytes being read (see the comment at the top).
void Writer::values_up_to_end(const Node& f, Type& t) {
  std::vector<std::string> attrs = value_attrs(f.children[0]);
  attrs.push_back("repeat: eos");
  t.seq.push_back(item(f.name, attrs));
}

// A counted array: Kaitai has no folded form, so the count is a field `num_<name>` of its own.
void Writer::counted_fields(const Node& f, Type& t) {
  std::string num = absl::StrCat("num_", f.name);
  t.seq.push_back(item(num, {absl::StrCat("type: ", scalar(f.count_type))}));
  t.seq.push_back(item(f.name, repeated_attrs(f.children[0], num)));
}

// Bytes after their length: `len_<name>` then `<name>` sized by it.
void Writer::length_prefixed_fields(const Node& f, Type& t) {
  std::string len = absl::StrCat("len_", f.name);
  t.seq.push_back(item(len, {absl::StrCat("type: ", scalar(f.count_type))}));
  t.seq.push_back(item(f.name, {absl::StrCat("size: ", len)}));
}

// A pointer: `<name>_tag` (00 or 03), then `<name>`, read only when the tag is 00.
void Writer::pointer_fields(const Node& f, Type& t) {
  std::string tag = absl::StrCat(f.name, "_tag");
  t.seq.push_back(item(tag, {"type: u1", "valid:", "  any-of: ['0', '3']"}));
  t.seq.push_back(
      item(f.name, {absl::StrCat("type: ", kaitai_type_name(f.children[0].type)), absl::StrCat("if: ", tag, " == 0")}));
}

// A class switch: `class_id` (limited to the known ids unless any class is read), then `class_body`
// whose type switches on it.
void Writer::class_switch_fields(const Node& f, Type& t) {
  std::vector<std::string> attrs = {"type: u4", absl::StrCat("doc: ", f.what)};
  if (!f.any_class) {
    std::vector<std::string> ids;
    for (const describe::Alternative& a : f.alternatives) ids.push_back(absl::StrFormat("'0x%08x'", *a.class_id));
    attrs.push_back("valid:");
    attrs.push_back(absl::StrCat("  any-of: [", absl::StrJoin(ids, ", "), "]"));
  }
  t.seq.push_back(item("class_id", attrs));
  std::vector<std::string> body = {"type:", "  switch-on: class_id", "  cases:"};
  for (const describe::Alternative& a : f.alternatives)
    body.push_back(absl::StrCat("    ", a.class_id ? absl::StrFormat("'0x%08x'", *a.class_id) : "_", ": ",
                                kaitai_type_name(a.body->type)));
  t.seq.push_back(item("class_body", body));
}

// Values each followed by a constant of its place: Kaitai cannot check a different constant per
// element of one array, so they are unrolled (`<name>_0`, `<name>_0_class`, ...) and an instance
// `<name>` lists the values, the shape JSON gives them.
void Writer::unrolled_values_with_classes(const Node& f, Type& t) {
  std::vector<std::string> values;
  for (std::size_t i = 0; i < f.count; ++i) {
    std::string id = absl::StrCat(f.name, "_", i);
    t.seq.push_back(item(id, value_attrs(f.children[0])));
    t.seq.push_back(item(absl::StrCat(id, "_class"), {"type: u4", absl::StrFormat("valid: '0x%08x'", f.constants[i]),
                                                      absl::StrCat("doc: ", f.what)}));
    values.push_back(id);
  }
  t.instances.push_back(absl::StrCat("      ", f.name, ":\n        value: '[", absl::StrJoin(values, ", "), "]'\n"));
}

// A table's heads: `num_<name>` then the heads. The head type is kept, since the bodies that follow
// take from it what sizes them.
void Writer::table_heads_fields(const Node& f, Type& t) {
  std::string num = absl::StrCat("num_", f.name);
  t.seq.push_back(item(num, {absl::StrCat("type: ", scalar(f.count_type))}));
  t.seq.push_back(item(f.name, {absl::StrCat("type: ", kaitai_type_name(f.children[0].type)), "repeat: expr",
                                absl::StrCat("repeat-expr: ", num)}));
  heads_.insert_or_assign(f.name, f.children[0]);  // a copy: f may be a renamed form's temporary
}

// A table's bodies, one per head. What a body is sized by and does not read itself is a field of its
// head: the body type takes it as a parameter (recorded for structure()) and each body is passed its
// own head's value.
void Writer::table_bodies_field(const Node& f, Type& t) {
  const Node& body = f.children[0];
  const auto found = heads_.find(f.what);
  const Node* head = found == heads_.end() ? nullptr : &found->second;
  std::vector<std::string> args;
  for (const Node& bf : body.children) {
    if (bf.kind != Kind::kSizedBytes || bf.sized_by.empty() || head == nullptr) continue;
    for (const Node& hf : head->children)
      if (hf.name == bf.sized_by) {
        if (auto& params = body_params_[body.type];
            std::find(params.begin(), params.end(), std::pair(hf.name, scalar(hf.type))) == params.end())
          params.emplace_back(hf.name, scalar(hf.type));
        args.push_back(absl::StrCat(f.what, "[_index].", hf.name));
      }
  }
  std::string type = kaitai_type_name(body.type);
  if (!args.empty()) type = absl::StrCat(type, "(", absl::StrJoin(args, ", "), ")");
  t.seq.push_back(
      item(f.name, {absl::StrCat("type: ", type), "repeat: expr", absl::StrCat("repeat-expr: num_", f.what)}));
}

// An either() whose two forms are one field of two types (an id of 4 or 8 bytes by the archive
// version): one field whose type switches on the condition, the most readable form. False (and
// nothing emitted) when the forms differ in more than a type.
bool Writer::either_as_switched_type(const Node& f, Type& t) {
  const std::vector<Node>& one = f.children[0].children;
  const std::vector<Node>& other = f.children[1].children;
  if (one.size() != 1 || other.size() != 1 || one[0].name != other[0].name) return false;
  std::vector<std::string> a = value_attrs(one[0]), b = value_attrs(other[0]);
  if (a.size() != 1 || b.size() != 1 || a[0].rfind("type: ", 0) != 0 || b[0].rfind("type: ", 0) != 0) return false;
  t.seq.push_back(item(one[0].name, {absl::StrCat("type:\n          switch-on: ", f.what,
                                                  "\n          cases:\n            true: ", a[0].substr(6),
                                                  "\n            false: ", b[0].substr(6))}));
  return true;
}

// Any other either(): the fields of each form, each under its form's condition (Kaitai has no
// if/else around several fields). A name the type already has (the first form's, a nested form's)
// gets the first free suffix `_2`, `_3`… in the second, since a Kaitai type's ids are unique.
void Writer::either_forms_under_conditions(const Node& f, Type& t, int& unnamed) {
  std::size_t first = t.seq.size();
  for (const Node& c : f.children[0].children) field(c, t, unnamed);
  std::size_t second = t.seq.size();
  auto taken = [&](const std::string& id) {
    return std::any_of(t.seq.begin(), t.seq.end(), [&](const std::string& item) {
      return item.rfind(absl::StrCat("      - id: ", id, "\n"), 0) == 0;
    });
  };
  std::map<std::string, std::string> renames;  // a table's heads renamed: its bodies count the new name
  for (const Node& c : f.children[1].children) {
    Node renamed = c;
    for (int n = 2; !renamed.name.empty() && taken(renamed.name); ++n) renamed.name = absl::StrCat(c.name, "_", n);
    if (renamed.name != c.name) renames[c.name] = renamed.name;
    if (c.kind == Kind::kBodies && renames.contains(c.what)) renamed.what = renames[c.what];
    field(renamed, t, unnamed);
  }
  for (std::size_t i = first; i < t.seq.size(); ++i)
    add_condition(t.seq[i], i < second ? absl::StrCat("(", f.what, ")") : absl::StrCat("not (", f.what, ")"));
}

// Puts a seq item under `condition`; an item already under one (a form inside a form: the block
// count's width inside the block table) is read only when both hold.
void Writer::add_condition(std::string& seq_item, const std::string& condition) {
  const std::string key = "        if: ";
  if (auto at = seq_item.find(key); at != std::string::npos) {
    const auto end = seq_item.find('\n', at);
    const std::string inner = seq_item.substr(at + key.size(), end - at - key.size());
    seq_item.replace(at, end - at, absl::StrCat(key, condition, " and (", inner, ")"));
  } else {
    seq_item += absl::StrCat(key, condition, "\n");
  }
}

}  // namespace anvil::schema::ksy
