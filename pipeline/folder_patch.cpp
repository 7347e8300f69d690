#include "pipeline/folder_patch.hpp"

#include <absl/strings/str_format.h>

#include <string_view>

#include "model/document.hpp"
#include "patch/json_util.hpp"
#include "patch/ops.hpp"
#include "pipeline/folder_router.hpp"

namespace anvil::folder {

std::size_t FolderPatchOutcome::edited_objects() const {
  std::size_t n = 0;
  for (const ArchivePatch& a : archives) n += a.outcome.edited_objects();
  return n;
}

std::size_t FolderPatchOutcome::edited_datafiles() const {
  std::size_t n = 0;
  for (const ArchivePatch& a : archives) n += a.outcome.edited_datafiles();
  return n;
}

std::size_t FolderPatchOutcome::edited_archives() const {
  std::size_t n = 0;
  for (const ArchivePatch& a : archives) n += a.outcome.edited_objects() > 0;
  return n;
}

namespace route {

namespace {

// Whether an operation of an archive's share addresses an object by its key (/objects/KEY/..., a bulk
// operation's "objects"), which the archive engine looks up in every data file.
bool looks_keys_up(const Value& ops) {
  auto by_key = [](std::string_view pointer) {
    auto segments = patch::parse_pointer(pointer);
    return segments && segments->size() > 1 && segments->front() == document::text(document::kObjects);
  };
  for (const Value& op : ops.GetArray()) {
    if (!op.IsObject()) continue;
    for (const char* member : {"path", "from"})
      if (auto it = op.FindMember(member); it != op.MemberEnd() && it->value.IsString() &&
                                           by_key({it->value.GetString(), it->value.GetStringLength()}))
        return true;
    if (auto it = op.FindMember("op"); it != op.MemberEnd() && it->value.IsString())
      if (const patch::OpInfo* info = patch::find_op(it->value.GetString());
          info && info->route == patch::OpRoute::by_objects)
        return true;
  }
  return false;
}

}  // namespace

// Runs one archive's operations (those before the earliest failure known) through the archive engine. A
// bulk operation that matches nothing in this archive is dropped and the rest run again: it changes
// nothing here, and fails only when it matches nothing in every archive it reached.
void Router::run_archive(std::size_t archive, patch::RoutedShare& sub, FolderPatchOutcome& outcome) {
  if (failure_) sub.cut_from(failure_.op());
  if (sub.index.empty()) return;
  auto levels = folder_.levels(archive);
  if (!levels.ok()) {
    fail(sub.index.front(), patch::PatchError{0, pointers_[sub.index.front()], std::string(levels.status().message()),
                                              patch::kBadPatch, true});
    return;
  }
  // The ids of the archive's data files, from the folder's key cache, when its operations look keys up.
  const patch::archive::KnownIds* known = nullptr;
  if (keys_[archive] || looks_keys_up(sub.ops)) {
    auto ids = folder_.known_ids(archive);
    if (!ids.ok()) {
      fail(sub.index.front(), patch::PatchError{0, pointers_[sub.index.front()], std::string(ids.status().message()),
                                                patch::kBadPatch, true});
      return;
    }
    known = *ids;
  }
  while (!sub.index.empty()) {
    patch::ArchivePatchOutcome out = patch::apply_archive_patch(**levels, sub.ops, options_, known);
    if (!out.error) {
      const std::string prefix = archive_pointer(folder_.name(archive));
      for (patch::DataFilePatch& d : out.datafiles)
        for (patch::Change& c : d.result.changes) {
          c.op_index = sub.index[c.op_index];
          c.pointer = prefix + c.pointer;
        }
      for (patch::Change& c : out.document_changes) {
        c.op_index = sub.index[c.op_index];
        c.pointer = prefix + c.pointer;
      }
      std::vector<std::string> names;
      for (const patch::DataFilePatch& d : out.datafiles) names.push_back((*levels)->name(d.datafile));
      outcome.archives.push_back({archive, std::move(out), std::move(names)});
      return;
    }
    patch::PatchError& e = *out.error;
    if (e.op_index == patch::PatchError::kWholePatch || e.op_index >= sub.index.size()) {
      fail(sub.index.front(), patch::PatchError{0, pointers_[sub.index.front()], with_archive(e.reason, archive),
                                                e.exit_code, e.input_fault});
      return;
    }
    const std::size_t k = e.op_index, index = sub.index[k];
    auto bulk = bulk_.find(index);
    if (bulk != bulk_.end() && bulk->second.archives > 1 && e.exit_code == patch::kTestFailed) {
      ++bulk->second.matched_nothing;
      bulk->second.error = e;
      bulk->second.last = archive;
      sub.erase(k);
      continue;
    }
    // The folder's pointer, not the one the archive was given.
    e.pointer = pointers_[index];
    if (sub.named[k] || e.input_fault) e.reason = with_archive(e.reason, archive);
    fail(index, std::move(e));
    return;
  }
}

FolderPatchOutcome Router::run() {
  FolderPatchOutcome outcome;
  pointers_.resize(patch_.Size());
  for (std::size_t i = 0; i < patch_.Size() && !failure_; ++i) {
    try {
      route(i, patch_[static_cast<rapidjson::SizeType>(i)]);
    } catch (const patch::archive::Refusal& r) {
      fail(i, patch::PatchError{0, pointers_[i], r.reason, r.exit_code, r.input_fault});
    }
  }
  for (auto& [archive, sub] : subs_) run_archive(archive, sub, outcome);
  for (auto& [index, bulk] : bulk_) {
    if (failure_.at_or_before(index)) break;
    if (bulk.archives > 1 && bulk.matched_nothing == bulk.archives) {
      patch::PatchError e = bulk.error;
      e.pointer = pointers_[index];
      e.reason = absl::StrFormat("%s, nor in any of the other %d archives it ranges over",
                                 with_archive(e.reason, bulk.last), bulk.archives - 1);
      fail(index, std::move(e));
    }
  }
  if (failure_) {
    outcome.error = failure_.take();
    outcome.archives.clear();
  }
  return outcome;
}

}  // namespace route

FolderPatchOutcome apply_folder_patch(FolderLevels& folder, const rapidjson::Value& patch,
                                      const patch::PatchOptions& options) {
  FolderPatchOutcome outcome;
  if ((outcome.error = patch::check_patch_shape(patch))) return outcome;
  try {
    return route::Router(folder, patch, options).run();
  } catch (const std::exception& e) {
    outcome.error = patch::PatchError{patch::PatchError::kWholePatch, "", std::string("internal error: ") + e.what(),
                                      patch::kBadPatch};
  }
  return outcome;
}

FolderPatchOutcome apply_folder_patch_text(FolderLevels& folder, std::string_view patch_json,
                                           const patch::PatchOptions& options) {
  rapidjson::Document doc;
  if (auto error = patch::parse_patch_text(patch_json, doc)) {
    FolderPatchOutcome outcome;
    outcome.error = std::move(error);
    return outcome;
  }
  return apply_folder_patch(folder, doc, options);
}

}  // namespace anvil::folder
