// Routing the operations of a folder patch (pipeline/folder_patch.hpp) to the archives they address, each
// rewritten to that archive's own document.
#include <absl/strings/str_format.h>
#include <absl/strings/str_join.h>

#include <algorithm>

#include "patch/json_util.hpp"
#include "patch/ops.hpp"
#include "pipeline/folder_router.hpp"

namespace anvil::folder::route {

namespace {

std::string member_string(const Value& op, const char* name) {
  auto it = op.FindMember(name);
  if (it == op.MemberEnd() || !it->value.IsString()) return {};
  return {it->value.GetString(), it->value.GetStringLength()};
}

std::string names_of(const FolderLevels& folder, const std::vector<std::size_t>& archives) {
  std::vector<std::string> names;
  for (std::size_t a : archives) names.push_back(folder.name(a));
  return absl::StrJoin(names, ", ");
}

}  // namespace

forge::ArchiveLevels& Router::open(std::size_t archive) {
  auto levels = folder_.levels(archive);
  if (!levels.ok())
    patch::archive::refuse_unreadable(
        absl::StrFormat("%s (the operation looks in every archive of the folder)", levels.status().message()));
  return **levels;
}

std::size_t Router::archive_named(const std::string& name) {
  if (auto a = folder_.folder().find(name)) return *a;
  refuse(absl::StrFormat("no archive \"%s\" in %s (its archives: %s)", name, folder_.folder().dir,
                         absl::StrJoin(folder_.folder().archives, ", ")));
}

std::size_t Router::key_holder(const std::string& key, const std::vector<bool>* among) {
  if (auto it = renamed_.find(key); it != renamed_.end()) return it->second;
  std::vector<std::size_t> holders;
  for (std::size_t a = 0; a < folder_.size(); ++a) {
    if (among && !(*among)[a]) continue;
    if (!keys_[a]) {
      forge::ArchiveLevels& set = open(a);
      auto known = folder_.known_ids(a);
      if (!known.ok())
        patch::archive::refuse_unreadable(absl::StrFormat(
            "%s (an object key is looked up in every archive of the folder)", known.status().message()));
      keys_[a] = std::make_unique<patch::archive::KeyIndex>(set, *known);
    }
    if (!keys_[a]->holders(key, nullptr).empty()) holders.push_back(a);
  }
  if (holders.empty())
    refuse(absl::StrFormat("no object with key \"%s\" in %s", key,
                           among ? "the archives named by \"archives\"" : "any archive of the folder"));
  if (holders.size() > 1)
    refuse(absl::StrFormat(
        "the object key \"%s\" is in several archives (%s): address one as /archives/FILE.forge/objects/%s", key,
        names_of(folder_, holders), patch::escape_segment(key)));
  return holders.front();
}

std::size_t Router::datafile_holder(const std::string& name, const std::vector<bool>* among) {
  std::vector<std::size_t> holders;
  for (std::size_t a = 0; a < folder_.size(); ++a)
    if ((!among || (*among)[a]) && !open(a).select(name).empty()) holders.push_back(a);
  if (holders.empty())
    refuse(absl::StrFormat("no archive of the folder has a data file \"%s\" (see anvilrt ls)", name));
  if (holders.size() > 1)
    refuse(absl::StrFormat(
        "the data file \"%s\" is in several archives (%s): address one as /archives/FILE.forge/datafiles/%s", name,
        names_of(folder_, holders), patch::escape_segment(name)));
  return holders.front();
}

Target Router::locate(const std::string& pointer) {
  auto parsed = patch::parse_pointer(pointer);
  if (!parsed) refuse("not a JSON pointer (RFC 6901: \"\" or \"/\" segments, \"~0\" and \"~1\" escapes)");
  std::vector<std::string>& seg = *parsed;
  Target t;
  if (seg.empty()) refuse("the whole folder document cannot be patched or tested: address an archive's members");
  if (seg[0] == kArchives) {
    if (seg.size() == 1) refuse("\"archives\" as a whole cannot be patched or tested: address an archive's members");
    t.archive = archive_named(seg[1]);
    if (seg.size() == 2) refuse("an archive as a whole cannot be patched or tested: address its data files or objects");
    t.segments.assign(seg.begin() + 2, seg.end());
  } else if (seg[0] == "objects") {
    if (seg.size() == 1)
      refuse(
          "the folder document has no \"objects\": address objects by a key unique in the folder (/objects/KEY/...)");
    t.archive = key_holder(seg[1], nullptr);
    t.segments = std::move(seg);
  } else if (seg[0] == "datafiles") {
    if (seg.size() == 1) refuse("\"datafiles\" as a whole cannot be patched or tested: address a data file's members");
    t.archive = datafile_holder(seg[1], nullptr);
    t.segments = std::move(seg);
  } else if (seg[0] == "format" || seg[0] == "game") {
    if (folder_.size() == 0) refuse("the folder holds no archive");
    t.archive = 0;
    t.segments = std::move(seg);
  } else {
    refuse(absl::StrFormat(
        "the folder document has no member \"%s\" (archives; objects, datafiles, format and game as in an archive)",
        seg[0]));
  }
  t.pointer = patch::make_pointer(t.segments, t.segments.size());
  return t;
}

void Router::add(std::size_t archive, std::size_t index, Value&& op, bool named) {
  subs_[archive].add(std::move(op), index, named);
}

void Router::add_unchanged(std::size_t index, const Value& op) {
  if (folder_.size() == 0) refuse("the folder holds no archive");
  add(0, index, Value(op, subs_[0].ops.GetAllocator()), false);
}

// An operation that sets an object's "id" gives it a new key: later operations find it by that key in the
// archive it is in.
void Router::note_new_key(std::size_t archive, const std::string& op, const Target& target, const Value& op_value) {
  if (op != "replace" && op != "add") return;
  auto value = op_value.FindMember("value");
  if (value == op_value.MemberEnd()) return;
  const std::vector<std::string>& s = target.segments;
  // .../objects/KEY or .../objects/KEY/id, with or without /datafiles/NAME before.
  std::size_t at = !s.empty() && s[0] == "datafiles" ? 2 : 0;
  if (s.size() < at + 2 || s[at] != "objects") return;
  const Value* id = nullptr;
  if (s.size() == at + 3 && s[at + 2] == "id")
    id = &value->value;
  else if (s.size() == at + 2 && value->value.IsObject())
    if (auto it = value->value.FindMember("id"); it != value->value.MemberEnd()) id = &it->value;
  if (id != nullptr && id->IsString()) renamed_[std::string(id->GetString(), id->GetStringLength())] = archive;
}

void Router::route(std::size_t index, const Value& op) {
  std::string name = op.IsObject() ? member_string(op, "op") : "";
  pointers_[index] = name;
  if (!op.IsObject()) return add_unchanged(index, op);
  const patch::OpInfo* info = patch::find_op(name);
  if (info == nullptr) return add_unchanged(index, op);
  if (info->route == patch::OpRoute::by_objects) return route_bulk(index, op);
  auto path_member = op.FindMember("path");
  if (path_member == op.MemberEnd() || !path_member->value.IsString()) return add_unchanged(index, op);
  std::string path(path_member->value.GetString(), path_member->value.GetStringLength());
  pointers_[index] = path;
  Target target = locate(path);
  std::optional<Target> from;
  if (info->op == patch::Op::move || info->op == patch::Op::copy) {
    auto it = op.FindMember("from");
    if (it == op.MemberEnd() || !it->value.IsString()) return add_unchanged(index, op);
    from = locate({it->value.GetString(), it->value.GetStringLength()});
    if (from->archive != target.archive)
      refuse(absl::StrFormat("\"from\" lies in archive %s and \"path\" in archive %s: %s works within one archive",
                             folder_.name(from->archive), folder_.name(target.archive), name));
  }
  auto& alloc = subs_[target.archive].ops.GetAllocator();
  Value rewritten(op, alloc);
  rewritten["path"].SetString(target.pointer.data(), static_cast<rapidjson::SizeType>(target.pointer.size()), alloc);
  if (from)
    rewritten["from"].SetString(from->pointer.data(), static_cast<rapidjson::SizeType>(from->pointer.size()), alloc);
  add(target.archive, index, std::move(rewritten), true);
  note_new_key(target.archive, name, target, op);
}

}  // namespace anvil::folder::route
