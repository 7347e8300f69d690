// `anvilrt schema --markdown`: the format reference (docs/format.md), one table per structure, from the
// layout declarations through the describing archive.
#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>
#include <absl/strings/str_join.h>

#include "model/class_ids.hpp"
#include "schema/schema.hpp"

namespace anvil::schema {

namespace {

using describe::Kind;
using describe::Node;

std::string anchor(const std::string& type) {
  std::string a;
  for (char c : type) a += (c == ':') ? '-' : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  // "ac2::Visual" -> "ac2--visual"; one dash is enough
  std::string out;
  for (char c : a)
    if (!(c == '-' && !out.empty() && out.back() == '-')) out += c;
  return out;
}

std::string link(const Node& s) { return absl::StrCat("[`", s.type, "`](#", anchor(s.type), ")"); }

std::string class_text(u32 id) {
  auto name = class_id::name_of(id);
  return name ? absl::StrFormat("0x%08X (%s)", id, *name) : absl::StrFormat("0x%08X", id);
}

// An offset from the start of a structure: a fixed part and the sizes that depend on the data.
struct Offset {
  std::size_t fixed = 0;
  std::vector<std::string> terms;

  std::string text() const {
    if (terms.empty()) return absl::StrFormat("0x%02X", fixed);
    std::string s = fixed != 0 ? absl::StrCat(fixed, " + ") : "";
    return s + absl::StrJoin(terms, " + ");
  }
};

std::string field_name(const Node& n) { return n.name.empty() ? "—" : absl::StrCat("`", n.name, "`"); }

std::string type_text(const Node& n) {
  switch (n.kind) {
    case Kind::kScalar:
    case Kind::kId:
    case Kind::kConstant:
      return n.type;
    case Kind::kOpaque:
      return absl::StrCat("bytes[", n.size, "]");
    case Kind::kStruct:
      return link(n);
    case Kind::kArray:
      return absl::StrCat(type_text(n.children[0]), "[", n.count, "]");
    case Kind::kCounted:
      return absl::StrCat(n.count_type, " n, ", type_text(n.children[0]), "[n]");
    case Kind::kBytes:
      return absl::StrCat(n.count_type, " n, bytes[n]");
    case Kind::kPointer:
      return absl::StrCat("pointer to ", link(n.children[0]));
    case Kind::kSwitch:
      return "u32 class, then its body";
    case Kind::kPresentIf:
      return link(n.children[0]);
    case Kind::kUntilTail:
      return "bytes";
    case Kind::kEachFollowedBy:
      return absl::StrCat("(", type_text(n.children[0]), ", u32)[", n.count, "]");
  }
  return "";
}

std::string rule_text(const Node& n) {
  switch (n.kind) {
    case Kind::kConstant:
      return absl::StrFormat("must be 0x%0*X (%s)%s", 2 * n.size, n.constant, n.what,
                             n.shown ? "; shown in JSON as a number" : "; not in JSON");
    case Kind::kOpaque:
      return "kept as stored; JSON hex";
    case Kind::kId:
      return absl::StrFormat("JSON \"0x\" + %d hex digits", 2 * n.size);
    case Kind::kCounted:
      return absl::StrFormat(
          "the count is checked against the bytes left (n × %d ≤ left) before anything is allocated; "
          "written as the array's length",
          n.children[0].kind == Kind::kStruct && !describe::fixed_size(n.children[0]) ? n.element_wire_size
                                                                                      : n.element_wire_size);
    case Kind::kBytes:
      return "n checked against the bytes left; JSON hex";
    case Kind::kPointer:
      return "tag `00` then the object; `03`: none (JSON null); any other tag: not this structure";
    case Kind::kSwitch: {
      std::vector<std::string> cases;
      for (const describe::Alternative& a : n.alternatives)
        cases.push_back(a.class_id ? absl::StrCat(class_text(*a.class_id), " → ", link(*a.body))
                                   : absl::StrCat("any other → ", link(*a.body), " (the class kept)"));
      if (!n.any_class) cases.push_back("any other: not this structure");
      return absl::StrCat("JSON `\"class\"` (the name, or \"0x%08x\"): ", absl::StrJoin(cases, "; "));
    }
    case Kind::kPresentIf:
      return absl::StrCat("present ", n.what, "; JSON null when absent");
    case Kind::kUntilTail:
      return absl::StrFormat(
          "opaque bytes up to the first offset where a valid `ac2::VisualTail` starts, at most %d bytes "
          "ahead, holding no Visual class id (29 8D 65 EC); JSON hex",
          kUntilTailLimit);
    case Kind::kEachFollowedBy: {
      std::vector<std::string> cls;
      for (u32 c : n.constants) cls.push_back(class_text(c));
      return absl::StrCat("each value is followed by a u32 that must be the class of its place (", n.what,
                          "): ", absl::StrJoin(cls, ", "), "; JSON: the array of the values");
    }
    default:
      return "";
  }
}

std::string size_text(const Node& n) {
  if (auto s = describe::fixed_size(n)) return absl::StrCat(*s);
  switch (n.kind) {
    case Kind::kCounted:
      if (auto e = describe::fixed_size(n.children[0])) return absl::StrCat(describe::min_size(n), " + ", *e, "n");
      return absl::StrCat(describe::min_size(n), " + var");
    case Kind::kBytes:
      return absl::StrCat(describe::min_size(n), " + n");
    default:
      return absl::StrCat("≥ ", describe::min_size(n));
  }
}

void structure(const Node& s, std::string& out) {
  absl::StrAppend(&out, "<a id=\"", anchor(s.type), "\"></a>\n### `", s.type, "`");
  if (!s.section.empty()) absl::StrAppend(&out, " (FORMAT.md ", s.section, ")");
  out += "\n\n";
  if (auto size = describe::fixed_size(s))
    absl::StrAppend(&out, "Always ", *size, " bytes.\n\n");
  else
    absl::StrAppend(&out, "At least ", describe::min_size(s), " bytes.\n\n");
  out += "| off | size | field | type | rule |\n|---|---|---|---|---|\n";
  Offset off;
  for (const Node& f : s.children) {
    absl::StrAppend(&out, "| ", off.text(), " | ", size_text(f), " | ", field_name(f), " | ", type_text(f), " | ",
                    rule_text(f), " |\n");
    if (auto size = describe::fixed_size(f)) {
      off.fixed += *size;
    } else if (f.kind == Kind::kCounted && describe::fixed_size(f.children[0])) {
      off.fixed += describe::min_size(f);
      off.terms.push_back(absl::StrCat(*describe::fixed_size(f.children[0]), "·#", f.name));
    } else if (f.kind == Kind::kBytes) {
      off.fixed += describe::min_size(f);
      off.terms.push_back(absl::StrCat("#", f.name));
    } else {
      off.terms.push_back(absl::StrCat("len(", f.name, ")"));
    }
  }
  out += "\n";
}

}  // namespace

std::string format_markdown() {
  std::vector<TopLevel> tops = top_levels();
  std::string out =
      "# anvilrt format reference\n\n"
      "Generated by `anvilrt schema --markdown` from the layout declarations in `model/` (the same ones the\n"
      "reader, the writer and the JSON archives run); do not edit: a test fails when this file is stale.\n"
      "FORMAT.md sections are those of the project's format contract, which this restates as code.\n\n"
      "## Conventions\n\n"
      "* All integers and floats are little-endian. `id64`/`id32` are object ids, shown in JSON as `\"0x\"` +\n"
      "  16 or 8 lowercase hex digits; other integers are JSON numbers; f32 is a JSON number that reads back\n"
      "  to the same f32 (NaN and infinities: `\"f32:0x<bits>\"`); opaque bytes are lowercase hex strings.\n"
      "* The field name is the JSON key and the patch pointer segment. Fields marked — are checked bytes that\n"
      "  JSON does not show: the writer writes them, the reader requires them.\n"
      "* A structure that fails any rule is not an object: its bytes stay in an opaque span (FORMAT.md 1).\n"
      "* Offsets are from the structure's first byte; `#name` is the stored count of `name`, `len(name)` the\n"
      "  size of `name` as read.\n\n"
      "## Top-level objects\n\n"
      "The carver finds each by its class id at a fixed place in its first bytes.\n\n"
      "| dialect | class | class id | class id at | layout |\n|---|---|---|---|---|\n";
  for (const TopLevel& t : tops)
    absl::StrAppend(&out, "| `", t.dialect, "` | ", t.name, " | ", absl::StrFormat("0x%08X", t.class_id), " | +",
                    t.class_offset, " | ", link(t.layout), " |\n");
  out += "\n## Structures\n\n";
  for (const Node* s : structures(tops)) structure(*s, out);
  return out;
}

}  // namespace anvil::schema
