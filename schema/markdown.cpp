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
    case Kind::kText:
      return absl::StrCat("text[", n.size, "]");
    case Kind::kSizeOf:
      return n.type;
    case Kind::kSizedBytes:
      if (!n.size_expr.empty()) return absl::StrCat("bytes[", n.size_expr, "]");
      return n.sized_by.empty() ? "bytes" : absl::StrCat("bytes[", n.sized_by, "]");
    case Kind::kHeads:
      return absl::StrCat(n.count_type, " n, ", link(n.children[0]), "[n]");
    case Kind::kBodies:
      return absl::StrCat(link(n.children[0]), "[#", n.what, "]");
    case Kind::kRestBytes:
      return "bytes";
    case Kind::kUntilEnd:
      return absl::StrCat(type_text(n.children[0]), "…");
    case Kind::kEither:
      return "one of two forms";
    case Kind::kGroup:
      return "";
  }
  return "";
}

std::string rule_text(const Node& n);

// The rule of a field, and the checks made once it is read.
std::string rule_and_checks(const Node& n) {
  std::string rule = rule_text(n);
  for (const std::string& c : n.checks) absl::StrAppend(&rule, rule.empty() ? "" : "; ", "checked: ", c);
  return rule;
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
    case Kind::kText:
      return "text padded with NULs; JSON the text when it is printable ASCII (no quote or backslash) followed "
             "only by NULs, else hex";
    case Kind::kSizeOf:
      return absl::StrCat("the size of `", n.sizes, "`; written as its length; not in JSON");
    case Kind::kSizedBytes:
      if (!n.size_expr.empty()) return absl::StrCat("`", n.size_expr, "` bytes; JSON hex");
      if (!n.what.empty()) return absl::StrCat("the bytes up to the offset in `", n.what, "`; JSON hex");
      return absl::StrCat("`", n.sized_by, "` bytes, checked against the bytes left; JSON hex");
    case Kind::kHeads:
      return absl::StrFormat(
          "a table: the count is checked against the bytes left (n × %d ≤ left, with the bodies) before anything is "
          "allocated; each head's body follows later; JSON: one array of heads and bodies together",
          n.element_wire_size);
    case Kind::kBodies:
      return absl::StrCat("one body per head of `", n.what, "`, in order; JSON: in the elements of `", n.what, "`");
    case Kind::kRestBytes:
      return "the bytes up to the end of the bytes being read; JSON hex";
    case Kind::kUntilEnd:
      return "elements up to the end of the bytes being read; JSON an array";
    case Kind::kEither:
      return absl::StrCat("when ", n.what, ": the fields marked (1), else those marked (2)");
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

// The rows of `fields` from `off` on (the fields of a structure, or of one form of an either()).
void rows(const std::vector<Node>& fields, Offset off, const std::string& mark, std::string& out) {
  for (const Node& f : fields) {
    absl::StrAppend(&out, "| ", off.text(), " | ", size_text(f), " | ", mark, field_name(f), " | ", type_text(f), " | ",
                    rule_and_checks(f), " |\n");
    if (f.kind == Kind::kEither) {
      rows(f.children[0].children, off, "(1) ", out);
      rows(f.children[1].children, off, "(2) ", out);
    }
    if (auto size = describe::fixed_size(f)) {
      off.fixed += *size;
    } else if (f.kind == Kind::kCounted && describe::fixed_size(f.children[0])) {
      off.fixed += describe::min_size(f);
      off.terms.push_back(absl::StrCat(*describe::fixed_size(f.children[0]), "·#", f.name));
    } else if (f.kind == Kind::kBytes) {
      off.fixed += describe::min_size(f);
      off.terms.push_back(absl::StrCat("#", f.name));
    } else {
      off.terms.push_back(absl::StrCat("len(", f.name.empty() ? "…" : f.name, ")"));
    }
  }
}

void structure(const Node& s, std::string& out) {
  absl::StrAppend(&out, "<a id=\"", anchor(s.type), "\"></a>\n### `", s.type, "`");
  out += "\n\n";
  if (auto size = describe::fixed_size(s))
    absl::StrAppend(&out, "Always ", *size, " bytes.\n\n");
  else
    absl::StrAppend(&out, "At least ", describe::min_size(s), " bytes.\n\n");
  out += "| off | size | field | type | rule |\n|---|---|---|---|---|\n";
  rows(s.children, Offset{}, "", out);
  out += "\n";
}

}  // namespace

std::string format_markdown() {
  std::vector<TopLevel> tops = top_levels();
  std::string out =
      "# anvilrt format reference\n\n"
      "Generated by `anvilrt schema --markdown` from the layout declarations in `model/` (the same ones the\n"
      "reader, the writer and the JSON archives run); do not edit: a test fails when this file is stale.\n"
      "[`docs/patches.md`](patches.md) says how a patch edits these fields.\n\n"
      "## Conventions\n\n"
      "* All integers and floats are little-endian. `id64`/`id32` are ids (of objects, data files, resource\n"
      "  types), shown in JSON as `\"0x\"` + 16 or 8 lowercase hex digits; other integers are JSON numbers; f32\n"
      "  is a JSON number that reads back to the same f32 (NaN and infinities: `\"f32:0x<bits>\"`); opaque bytes\n"
      "  are lowercase hex strings.\n"
      "* The field name is the JSON key and the patch pointer segment. Fields marked — are checked bytes that\n"
      "  JSON does not show: the writer writes them, the reader requires them.\n"
      "* A structure that fails any rule is not an object: its bytes stay in an opaque span, written back\n"
      "  as it was.\n"
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
  std::vector<describe::Node> forge = containers();
  out +=
      "## Containers (`.forge` archives)\n\n"
      "A `.forge` archive: its header, the file-data header at `first_header`, the table sections chained by\n"
      "`next`, each listing `count` index entries (at `index_table`) and name entries (at `name_table`); each\n"
      "index entry's `offset` is a data file's 440-byte header, whose stored bytes (`size` of them) follow. The\n"
      "stored bytes decompress (block sets) to the data file, whose resource bodies are level files.\n\n"
      "A block's (or compressed chunk's) `checksum` is checked against the archive's **checksum rule**. Which\n"
      "function the games use is not known, so the archive's blocks vote: each candidate (Adler-32 started at\n"
      "0 or at 1, over the stored or over the decompressed bytes) counts the checksummed blocks of the whole\n"
      "archive it matches, and the rule is the candidate the most match, provided it matches more than half\n"
      "of them (a tie goes to the first in that order). Every block the rule does not match is **damaged**: an\n"
      "error in every command that reads it, naming the archive, the data file, the block, its offset and the\n"
      "rule with its count (`adler32-0/stored (41 of 42 blocks)`). When no candidate matches more than half,\n"
      "the rule is `none`, said on every report: no block is checked, and changing a compressed data file is\n"
      "refused (a re-compressed block gets its checksum by the rule).\n\n";
  for (const Node* s : structures(forge)) structure(*s, out);
  return out;
}

}  // namespace anvil::schema
