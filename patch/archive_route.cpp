// Routing single operations of an archive patch: a pointer of the archive document to the data file it
// addresses (patch/archive_patch.hpp), the operation rewritten to that data file's own document.
#include <absl/strings/str_format.h>
#include <absl/strings/str_join.h>

#include <algorithm>

#include "model/document.hpp"
#include "model/json_text.hpp"
#include "patch/archive_router.hpp"
#include "patch/json_util.hpp"
#include "patch/ops.hpp"

namespace anvil::patch::archive {

namespace {

bool is(const std::string& segment, Key member) { return segment == document::text(member); }

std::string member_string(const Value& op, const char* name) {
  auto it = op.FindMember(name);
  if (it == op.MemberEnd() || !it->value.IsString()) return {};
  return {it->value.GetString(), it->value.GetStringLength()};
}

}  // namespace

std::size_t Router::datafile_named(const std::string& name) {
  std::vector<std::size_t> found = set_.select(name);
  if (found.empty())
    refuse(absl::StrFormat("no data file is named or has the id \"%s\" in the archive (see anvilrt ls)", name));
  if (found.size() > 1) {
    std::vector<std::string> names;
    for (std::size_t i : found) names.push_back(set_.name(i));
    refuse(absl::StrFormat("several data files have the id %s (%s): address one by its name", name,
                           absl::StrJoin(names, ", ")));
  }
  return found.front();
}

Target Router::locate(const std::string& pointer) {
  auto parsed = parse_pointer(pointer);
  if (!parsed) refuse("not a JSON pointer (RFC 6901: \"\" or \"/\" segments, \"~0\" and \"~1\" escapes)");
  std::vector<std::string>& seg = *parsed;
  Target t;
  if (seg.empty()) {
    refuse("the whole archive document cannot be patched or tested: address a data file's members");
  } else if (is(seg[0], document::kFormat) || is(seg[0], document::kGame)) {
    t.kind = Target::kMeta;
    t.segments = std::move(seg);
  } else if (is(seg[0], document::kObjects)) {
    if (seg.size() == 1)
      refuse(
          "the archive document has no \"objects\": objects lie under /datafiles/NAME/objects, or are addressed "
          "by a key unique in the archive (/objects/KEY/...)");
    t.kind = Target::kDataFile;
    t.datafile = keys_.holder(seg[1], nullptr);
    t.segments = std::move(seg);
  } else if (is(seg[0], document::kDatafiles)) {
    if (seg.size() == 1) refuse("\"datafiles\" as a whole cannot be patched or tested: address a data file's members");
    t.kind = Target::kDataFile;
    t.datafile = datafile_named(seg[1]);
    if (seg.size() == 2)
      refuse("a data file as a whole cannot be patched or tested: address its \"size\" or its objects");
    if (!document::is_member(seg[2], document::kDataFileMembers))
      refuse(absl::StrFormat("a data file's member has no \"%s\" (%s)", seg[2],
                             document::list(document::kDataFileMembers)));
    t.segments.assign(seg.begin() + 2, seg.end());
  } else {
    refuse(
        absl::StrFormat("the document has no member \"%s\" (%s)", seg[0], document::list(document::kArchiveMembers)));
  }
  return t;
}

void Router::add(std::size_t datafile, std::size_t index, Value&& op, bool named) {
  subs_[datafile].add(std::move(op), index, named);
}

// An operation the single-level engine refuses whatever data file it is given (not an object, no or an
// unknown "op", no "path", ...): given to the first data file, for the engine's own message.
void Router::add_unchanged(std::size_t index, const Value& op) {
  if (set_.size() == 0) refuse("the archive holds no data files");
  add(0, index, Value(op, subs_[0].ops.GetAllocator()), false);
}

// Keys follow ids (patch/patch.hpp): after an operation sets an object's "id", the new key names the
// object in its data file, and the old key no longer does (unless another object there has that id).
void Router::note_new_key(std::size_t datafile, const std::string& op, const Target& target, const Value& op_value) {
  if (op != "replace" && op != "add") return;
  auto value = op_value.FindMember("value");
  if (value == op_value.MemberEnd() || target.segments.size() < 2 || !is(target.segments[0], document::kObjects))
    return;
  const Value* id = nullptr;
  if (target.segments.size() == 3 && target.segments[2] == "id") {
    id = &value->value;
  } else if (target.segments.size() == 2 && value->value.IsObject()) {
    auto it = value->value.FindMember("id");
    if (it != value->value.MemberEnd()) id = &it->value;
  }
  if (id == nullptr || !id->IsString()) return;
  auto new_id = json_text::parse_id({id->GetString(), id->GetStringLength()}, keys_.id_width());
  if (!new_id) return;  // the engine refuses it
  keys_.renamed(datafile, target.segments[1], *new_id);
}

void Router::route(std::size_t index, const Value& op) {
  std::string name = op.IsObject() ? member_string(op, "op") : "";
  pointers_[index] = name;
  if (op.IsObject()) {
    // A member given twice: the engine refuses it before anything else.
    std::vector<std::string_view> seen;
    for (auto& m : op.GetObject()) seen.emplace_back(m.name.GetString(), m.name.GetStringLength());
    std::sort(seen.begin(), seen.end());
    if (std::adjacent_find(seen.begin(), seen.end()) != seen.end()) return add_unchanged(index, op);
  }
  const OpInfo* info = find_op(name);
  if (info == nullptr) return add_unchanged(index, op);  // known: op is an object (its "op" named one)
  switch (info->route) {
    case OpRoute::by_objects:
      return route_bulk(index, op);
    case OpRoute::by_path:
      break;
  }
  auto path_member = op.FindMember("path");
  if (path_member == op.MemberEnd() || !path_member->value.IsString()) return add_unchanged(index, op);
  std::string path(path_member->value.GetString(), path_member->value.GetStringLength());
  pointers_[index] = path;
  Target target = locate(path);
  std::optional<Target> from;
  if (info->op == Op::move || info->op == Op::copy) {
    auto it = op.FindMember("from");
    if (it == op.MemberEnd() || !it->value.IsString()) return add_unchanged(index, op);
    from = locate({it->value.GetString(), it->value.GetStringLength()});
  }
  if (target.kind == Target::kMeta) {
    // "format" and "game" are the archive's own; a test of them is answered here.
    if (name != "test")
      refuse(absl::StrFormat("\"%s\" is read-only: only the fields of objects can change", target.segments[0]));
    auto value = op.FindMember("value");
    if (value == op.MemberEnd()) return add_unchanged(index, op);
    if (target.segments.size() != 1) refuse("points to nothing in the document");
    std::string text =
        is(target.segments[0], document::kFormat) ? std::string(kDocumentFormat) : std::string(game_name(set_.game()));
    Value actual(rapidjson::StringRef(text.data(), text.size()));
    if (!json_equal(actual, value->value))
      refuse(absl::StrFormat("test failed: the value is %s, not %s", to_text(actual), to_text(value->value)),
             kTestFailed);
    if (options_.record_changes) {
      Change c;
      c.op_index = index;
      c.op = "test";
      c.pointer = path;
      c.old_value = to_text(actual);
      document_changes_.push_back(std::move(c));
    }
    return;
  }
  if (from && from->kind == Target::kDataFile && from->datafile != target.datafile)
    refuse(absl::StrFormat("\"from\" lies in data file %s and \"path\" in data file %s: %s works within one data file",
                           set_.name(from->datafile), set_.name(target.datafile), name));
  auto& alloc = subs_[target.datafile].ops.GetAllocator();
  Value rewritten(op, alloc);
  std::string inner = make_pointer(target.segments, target.segments.size());
  rewritten["path"].SetString(inner.data(), static_cast<rapidjson::SizeType>(inner.size()), alloc);
  if (from && from->kind == Target::kDataFile) {
    std::string from_inner = make_pointer(from->segments, from->segments.size());
    rewritten["from"].SetString(from_inner.data(), static_cast<rapidjson::SizeType>(from_inner.size()), alloc);
  }
  add(target.datafile, index, std::move(rewritten), true);
  note_new_key(target.datafile, name, target, op);
}

}  // namespace anvil::patch::archive
