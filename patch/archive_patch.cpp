#include "patch/archive_patch.hpp"

#include <absl/container/flat_hash_map.h>
#include <absl/container/inlined_vector.h>
#include <absl/strings/str_format.h>
#include <absl/strings/str_join.h>

#include <algorithm>
#include <map>

#include "model/dialect.hpp"
#include "model/json_text.hpp"
#include "patch/json_util.hpp"

namespace anvil::patch {

std::size_t ArchivePatchOutcome::edited_objects() const {
  std::size_t n = 0;
  for (const DataFilePatch& d : datafiles) n += d.result.edited.size();
  return n;
}

std::size_t ArchivePatchOutcome::edited_datafiles() const {
  std::size_t n = 0;
  for (const DataFilePatch& d : datafiles) n += !d.result.edited.empty();
  return n;
}

std::string datafile_pointer(std::string_view name) { return "/datafiles/" + escape_segment(name); }

namespace {

using rapidjson::Document;
using rapidjson::Value;

constexpr std::size_t kNone = static_cast<std::size_t>(-1);

// A routing refusal: the operation fails with this reason.
struct Refusal {
  std::string reason;
  int exit_code = kBadPatch;
};
[[noreturn]] void refuse(std::string reason, int exit_code = kBadPatch) { throw Refusal{std::move(reason), exit_code}; }

bool is_bulk(std::string_view op) {
  return op == "swap_material" || op == "transform" || op == "set_switch_distance" || op == "scale_switch_distance";
}

std::string member_string(const Value& op, const char* name) {
  auto it = op.FindMember(name);
  if (it == op.MemberEnd() || !it->value.IsString()) return {};
  return {it->value.GetString(), it->value.GetStringLength()};
}

// Where a pointer of the archive document lands.
struct Target {
  enum Kind { kMeta, kDataFile } kind = kMeta;
  std::size_t datafile = kNone;       // kDataFile
  std::vector<std::string> segments;  // kDataFile: the pointer inside the data file's document
};

class Router {
 public:
  Router(LevelSet& set, const Value& patch, const PatchOptions& options) : set_(set), patch_(patch), options_(options) {
    for (std::size_t i = 0; i < set.size(); ++i) names_.emplace(set.name(i), i);
    sub_options_.record_changes = options.record_changes;
  }

  ArchivePatchOutcome run();

 private:
  // One data file's share of the patch: its operations (rewritten to its own document), in order.
  struct Sub {
    Document ops{rapidjson::kArrayType};
    std::vector<std::size_t> index;  // each operation's index in the patch
    std::vector<bool> named;         // whether an error there is named by the data file
  };
  struct Bulk {
    std::size_t datafiles = 0;  // data files it was routed to
    std::size_t matched_nothing = 0;
    std::size_t last = 0;  // the last of those data files
    PatchError error;      // what a data file said when it matched nothing there
  };
  struct Failure {
    std::size_t op = kNone;
    PatchError error;
  };

  void route(std::size_t index, const Value& op);
  void route_bulk(std::size_t index, const Value& op);
  Target locate(const std::string& pointer);
  std::size_t datafile_named(const std::string& name);
  std::vector<std::size_t> holders(const std::string& key, const std::vector<bool>* among);
  std::size_t holder(const std::string& key, const std::vector<bool>* among);
  void build_index();
  void add(std::size_t datafile, std::size_t index, Value&& op, bool named);
  void add_unchanged(std::size_t index, const Value& op);
  void note_new_key(std::size_t datafile, const std::string& op, const Target& target, const Value& op_value);
  void fail(std::size_t index, PatchError error);
  void run_datafile(std::size_t datafile, Sub& sub, ArchivePatchOutcome& outcome);
  std::string with_datafile(const std::string& reason, std::size_t datafile) const {
    return absl::StrFormat("%s (data file %s)", reason, set_.name(datafile));
  }

  LevelSet& set_;
  const Value& patch_;
  PatchOptions options_;
  PatchOptions sub_options_;
  std::map<std::string, std::size_t, std::less<>> names_;
  std::map<std::size_t, Sub> subs_;
  std::map<std::size_t, Bulk> bulk_;
  std::vector<std::string> pointers_;  // each operation's pointer for errors (its path, or a bulk op's name)
  std::vector<Change> document_changes_;
  std::optional<Failure> failure_;  // the earliest failure so far
  // Keys of objects -> the data files holding them (ids as numbers: a large archive has millions).
  bool indexed_ = false;
  absl::flat_hash_map<u64, absl::InlinedVector<u32, 1>> ids_;
  absl::flat_hash_map<std::string, absl::InlinedVector<u32, 1>> other_keys_;  // "<id>@<offset>"
};

void Router::fail(std::size_t index, PatchError error) {
  if (failure_ && failure_->op <= index) return;
  error.op_index = index;
  failure_ = Failure{index, std::move(error)};
}

std::size_t Router::datafile_named(const std::string& name) {
  auto it = names_.find(name);
  if (it == names_.end()) refuse(absl::StrFormat("no data file named \"%s\" in the archive (see anvilrt ls)", name));
  return it->second;
}

void Router::build_index() {
  if (indexed_) return;
  for (std::size_t i = 0; i < set_.size(); ++i) {
    auto level = set_.level(i);
    if (!level.ok())
      refuse(absl::StrFormat("an object key is looked up in every data file, and data file %s cannot be read: %s",
                             set_.name(i), level.status().message()));
    for (const Piece& p : (*level)->pieces) {
      if (!p.is_object()) continue;
      // Every object of an id counts, so that renaming one leaves its data file holding the id when
      // another object there has it (which then takes the plain key).
      ids_[p.id].push_back(static_cast<u32>(i));
      if (p.repeated_id) other_keys_[object_key(p, set_.game())].push_back(static_cast<u32>(i));
    }
    set_.release(i);
  }
  indexed_ = true;
}

// The data files that hold an object with this key (among those flagged in `among`, when given).
std::vector<std::size_t> Router::holders(const std::string& key, const std::vector<bool>* among) {
  build_index();
  std::vector<std::size_t> found;
  auto collect = [&](const absl::InlinedVector<u32, 1>& list) {
    for (u32 i : list)
      if ((among == nullptr || (*among)[i]) && std::find(found.begin(), found.end(), i) == found.end())
        found.push_back(i);
  };
  std::size_t width = dialect::facts(set_.game()).id_width;
  // A plain key is the id in its one spelling ("0x" + lowercase hex of the dialect's width).
  if (auto id = json_text::parse_id(key, width); id && json_text::format_id(*id, width) == key)
    if (auto it = ids_.find(*id); it != ids_.end()) collect(it->second);
  if (auto it = other_keys_.find(key); it != other_keys_.end()) collect(it->second);
  std::sort(found.begin(), found.end());
  return found;
}

std::size_t Router::holder(const std::string& key, const std::vector<bool>* among) {
  std::vector<std::size_t> found = holders(key, among);
  if (found.empty())
    refuse(absl::StrFormat("no object with key \"%s\" in %s", key,
                           among ? "the data files named by \"datafiles\"" : "any data file of the archive"));
  if (found.size() > 1) {
    std::vector<std::string> names;
    for (std::size_t i : found) names.push_back(set_.name(i));
    refuse(absl::StrFormat(
        "the object key \"%s\" is in several data files (%s): address one as /datafiles/NAME/objects/%s", key,
        absl::StrJoin(names, ", "), escape_segment(key)));
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
  } else if (seg[0] == "format" || seg[0] == "game") {
    t.kind = Target::kMeta;
    t.segments = std::move(seg);
  } else if (seg[0] == "objects") {
    if (seg.size() == 1)
      refuse(
          "the archive document has no \"objects\": objects lie under /datafiles/NAME/objects, or are addressed "
          "by a key unique in the archive (/objects/KEY/...)");
    t.kind = Target::kDataFile;
    t.datafile = holder(seg[1], nullptr);
    t.segments = std::move(seg);
  } else if (seg[0] == "datafiles") {
    if (seg.size() == 1) refuse("\"datafiles\" as a whole cannot be patched or tested: address a data file's members");
    t.kind = Target::kDataFile;
    t.datafile = datafile_named(seg[1]);
    if (seg.size() == 2)
      refuse("a data file as a whole cannot be patched or tested: address its \"size\" or its objects");
    if (seg[2] != "size" && seg[2] != "objects")
      refuse(absl::StrFormat("a data file's member has no \"%s\" (size, objects)", seg[2]));
    t.segments.assign(seg.begin() + 2, seg.end());
  } else {
    refuse(absl::StrFormat("the document has no member \"%s\" (format, game, datafiles)", seg[0]));
  }
  return t;
}

void Router::add(std::size_t datafile, std::size_t index, Value&& op, bool named) {
  Sub& sub = subs_[datafile];
  sub.ops.PushBack(op, sub.ops.GetAllocator());
  sub.index.push_back(index);
  sub.named.push_back(named);
}

// An operation the single-level engine refuses whatever data file it is given (not an object, no or an
// unknown "op", no "path", ...): given to the first data file, for the engine's own message.
void Router::add_unchanged(std::size_t index, const Value& op) {
  if (set_.size() == 0) refuse("the archive holds no data files");
  Sub& sub = subs_[0];
  add(0, index, Value(op, sub.ops.GetAllocator()), false);
}

// Keys follow ids (patch/patch.hpp): after an operation sets an object's "id", the new key names the
// object in its data file, and the old key no longer does (unless another object there has that id).
void Router::note_new_key(std::size_t datafile, const std::string& op, const Target& target, const Value& op_value) {
  if (op != "replace" && op != "add") return;
  auto value = op_value.FindMember("value");
  if (value == op_value.MemberEnd() || target.segments.size() < 2 || target.segments[0] != "objects") return;
  const Value* id = nullptr;
  if (target.segments.size() == 3 && target.segments[2] == "id") {
    id = &value->value;
  } else if (target.segments.size() == 2 && value->value.IsObject()) {
    auto it = value->value.FindMember("id");
    if (it != value->value.MemberEnd()) id = &it->value;
  }
  if (id == nullptr || !id->IsString()) return;
  std::size_t width = dialect::facts(set_.game()).id_width;
  auto new_id = json_text::parse_id({id->GetString(), id->GetStringLength()}, width);
  if (!new_id) return;  // the engine refuses it
  build_index();
  const std::string& old_key = target.segments[1];
  if (auto old_id = json_text::parse_id(old_key, width); old_id && json_text::format_id(*old_id, width) == old_key)
    if (auto it = ids_.find(*old_id); it != ids_.end())
      if (auto at = std::find(it->second.begin(), it->second.end(), datafile); at != it->second.end())
        it->second.erase(at);
  ids_[*new_id].push_back(static_cast<u32>(datafile));
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
  if (is_bulk(name)) return route_bulk(index, op);
  bool rfc =
      name == "test" || name == "replace" || name == "add" || name == "remove" || name == "move" || name == "copy";
  if (!rfc) return add_unchanged(index, op);  // rfc: op is an object (its "op" named one)
  auto path_member = op.FindMember("path");
  if (path_member == op.MemberEnd() || !path_member->value.IsString()) return add_unchanged(index, op);
  std::string path(path_member->value.GetString(), path_member->value.GetStringLength());
  pointers_[index] = path;
  Target target = locate(path);
  std::optional<Target> from;
  if (name == "move" || name == "copy") {
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
    std::string text = target.segments[0] == "format" ? "anvilrt/1" : std::string(game_name(set_.game()));
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

void Router::route_bulk(std::size_t index, const Value& op) {
  // The data files it ranges over.
  std::vector<bool> among(set_.size(), true);
  bool narrowed = false;
  if (auto it = op.FindMember("datafiles"); it != op.MemberEnd()) {
    const Value& list = it->value;
    if (!list.IsArray() || list.Empty()) refuse("\"datafiles\" must be a non-empty array of data file names");
    std::fill(among.begin(), among.end(), false);
    for (const Value& item : list.GetArray()) {
      if (!item.IsString())
        refuse(absl::StrFormat("\"datafiles\" must hold data file names (found %s)", to_text(item)));
      std::size_t i = datafile_named({item.GetString(), item.GetStringLength()});
      if (among[i]) refuse(absl::StrFormat("\"datafiles\" lists \"%s\" twice", set_.name(i)));
      among[i] = true;
    }
    narrowed = true;
  }
  std::vector<std::size_t> ranged;
  for (std::size_t i = 0; i < among.size(); ++i)
    if (among[i]) ranged.push_back(i);
  if (ranged.empty()) refuse("the archive holds no data files");

  // Keys named by "objects" (an array of strings) go to the data files that hold them; anything else
  // ("*", absent, or malformed, which the engine refuses) goes to every data file it ranges over.
  std::map<std::size_t, std::vector<const Value*>> keys;
  auto objects = op.FindMember("objects");
  bool by_key = objects != op.MemberEnd() && objects->value.IsArray() && !objects->value.Empty();
  if (by_key)
    for (const Value& item : objects->value.GetArray())
      if (!item.IsString()) by_key = false;
  if (by_key) {
    for (const Value& item : objects->value.GetArray())
      keys[holder({item.GetString(), item.GetStringLength()}, narrowed ? &among : nullptr)].push_back(&item);
  }
  bool malformed = !by_key && objects != op.MemberEnd() && !(objects->value.IsString() && objects->value == "*");
  if (malformed) ranged.resize(1);  // one data file's engine says why

  auto sub_op = [&](std::size_t datafile) {
    auto& alloc = subs_[datafile].ops.GetAllocator();
    Value copy(rapidjson::kObjectType);
    for (auto& m : op.GetObject()) {
      if (m.name == "datafiles") continue;
      if (m.name == "objects" && by_key) {
        Value list(rapidjson::kArrayType);
        for (const Value* key : keys[datafile]) list.PushBack(Value(*key, alloc), alloc);
        copy.AddMember(Value(m.name, alloc), list, alloc);
      } else {
        copy.AddMember(Value(m.name, alloc), Value(m.value, alloc), alloc);
      }
    }
    add(datafile, index, std::move(copy), !malformed);
    ++bulk_[index].datafiles;
    bulk_[index].last = datafile;
  };
  if (by_key)
    for (auto& [datafile, list] : keys) sub_op(datafile);
  else
    for (std::size_t datafile : ranged) sub_op(datafile);
}

// Runs one data file's operations (those before the earliest failure known) through the engine. A bulk
// operation that matches nothing here is dropped and the rest run again: it changes nothing, and it
// fails only when it matches nothing anywhere.
void Router::run_datafile(std::size_t datafile, Sub& sub, ArchivePatchOutcome& outcome) {
  auto cut = [&](std::size_t limit) {
    while (!sub.index.empty() && sub.index.back() >= limit) {
      sub.ops.PopBack();
      sub.index.pop_back();
      sub.named.pop_back();
    }
  };
  if (failure_) cut(failure_->op);
  if (sub.index.empty()) return;
  auto level = set_.level(datafile);
  if (!level.ok()) {
    fail(sub.index.front(), PatchError{0, pointers_[sub.index.front()], std::string(level.status().message())});
    return;
  }
  while (!sub.index.empty()) {
    PatchOutcome out = apply_patch(**level, sub.ops, sub_options_);
    if (!out.error) {
      for (Change& c : out.result.changes) {
        c.op_index = sub.index[c.op_index];
        c.pointer = datafile_pointer(set_.name(datafile)) + c.pointer;
      }
      outcome.datafiles.push_back({datafile, std::move(out.result)});
      break;
    }
    PatchError& e = *out.error;
    if (e.op_index == PatchError::kWholePatch || e.op_index >= sub.index.size()) {
      fail(sub.index.front(), PatchError{0, pointers_[sub.index.front()], with_datafile(e.reason, datafile)});
      break;
    }
    std::size_t k = e.op_index;
    std::size_t index = sub.index[k];
    auto bulk = bulk_.find(index);
    if (bulk != bulk_.end() && e.exit_code == kTestFailed) {
      ++bulk->second.matched_nothing;
      bulk->second.error = e;
      sub.ops.Erase(sub.ops.Begin() + k);
      sub.index.erase(sub.index.begin() + k);
      sub.named.erase(sub.named.begin() + k);
      continue;
    }
    if (sub.named[k])
      fail(index, PatchError{0, pointers_[index], with_datafile(e.reason, datafile), e.exit_code});
    else
      fail(index, std::move(e));
    break;
  }
  set_.release(datafile);
}

ArchivePatchOutcome Router::run() {
  ArchivePatchOutcome outcome;
  pointers_.resize(patch_.Size());
  for (std::size_t i = 0; i < patch_.Size() && !failure_; ++i) {
    try {
      route(i, patch_[static_cast<rapidjson::SizeType>(i)]);
    } catch (const Refusal& r) {
      fail(i, PatchError{0, pointers_[i], r.reason, r.exit_code});
    }
  }
  for (auto& [datafile, sub] : subs_) run_datafile(datafile, sub, outcome);
  for (auto& [index, bulk] : bulk_) {
    if (failure_ && failure_->op <= index) break;
    if (bulk.datafiles > 0 && bulk.matched_nothing == bulk.datafiles) {
      PatchError e = bulk.error;
      e.reason = bulk.datafiles > 1 ? absl::StrFormat("%s in any of the %d data files", e.reason, bulk.datafiles)
                                    : with_datafile(e.reason, bulk.last);
      fail(index, std::move(e));
    }
  }
  if (failure_) {
    outcome.error = std::move(failure_->error);
    outcome.datafiles.clear();
    return outcome;
  }
  std::sort(outcome.datafiles.begin(), outcome.datafiles.end(),
            [](const DataFilePatch& a, const DataFilePatch& b) { return a.datafile < b.datafile; });
  outcome.document_changes = std::move(document_changes_);
  return outcome;
}

}  // namespace

ArchivePatchOutcome apply_archive_patch(LevelSet& set, const rapidjson::Value& patch, const PatchOptions& options) {
  ArchivePatchOutcome outcome;
  if ((outcome.error = check_patch_shape(patch))) return outcome;
  try {
    return Router(set, patch, options).run();
  } catch (const std::exception& e) {
    outcome.error = PatchError{PatchError::kWholePatch, "", std::string("internal error: ") + e.what(), kBadPatch};
  }
  return outcome;
}

ArchivePatchOutcome apply_archive_patch_text(LevelSet& set, std::string_view patch_json, const PatchOptions& options) {
  Document doc;
  if (auto error = parse_patch_text(patch_json, doc)) {
    ArchivePatchOutcome outcome;
    outcome.error = std::move(error);
    return outcome;
  }
  return apply_archive_patch(set, doc, options);
}

}  // namespace anvil::patch
