#include "patch/archive_patch.hpp"

#include <absl/strings/str_format.h>

#include <algorithm>

#include "model/document.hpp"
#include "patch/archive_router.hpp"
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

std::string datafile_pointer(std::string_view name) {
  return "/" + std::string(document::text(document::kDatafiles)) + "/" + escape_segment(name);
}

namespace archive {

// Runs one data file's operations (those before the earliest failure known) through the engine. A bulk
// operation that matches nothing here is dropped and the rest run again: it changes nothing, and it
// fails only when it matches nothing anywhere.
void Router::run_datafile(std::size_t datafile, RoutedShare& sub, ArchivePatchOutcome& outcome) {
  if (failure_) sub.cut_from(failure_.op());
  if (sub.index.empty()) return;
  // Held by another reader (a mod package's original data file, for the write that follows): left held.
  const bool held = set_.holds(datafile);
  auto level = set_.level(datafile);
  if (!level.ok()) {
    fail(sub.index.front(),
         PatchError{0, pointers_[sub.index.front()], std::string(level.status().message()), kBadPatch, true});
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
      sub.erase(k);
      continue;
    }
    if (sub.named[k])
      fail(index,
           PatchError{0, pointers_[index], with_datafile(e.reason, datafile), e.exit_code, e.input_fault, e.malformed});
    else
      fail(index, std::move(e));
    break;
  }
  if (!held) set_.release(datafile);
}

ArchivePatchOutcome Router::run() {
  ArchivePatchOutcome outcome;
  pointers_.resize(patch_.Size());
  for (std::size_t i = 0; i < patch_.Size() && !failure_; ++i) {
    try {
      route(i, patch_[static_cast<rapidjson::SizeType>(i)]);
    } catch (const Refusal& r) {
      fail(i, PatchError{0, pointers_[i], r.reason, r.exit_code, r.input_fault});
    }
  }
  for (auto& [datafile, sub] : subs_) run_datafile(datafile, sub, outcome);
  for (auto& [index, bulk] : bulk_) {
    if (failure_.at_or_before(index)) break;
    if (bulk.datafiles > 0 && bulk.matched_nothing == bulk.datafiles) {
      PatchError e = bulk.error;
      e.reason = bulk.datafiles > 1 ? absl::StrFormat("%s in any of the %d data files", e.reason, bulk.datafiles)
                                    : with_datafile(e.reason, bulk.last);
      fail(index, std::move(e));
    }
  }
  if (failure_) {
    outcome.error = failure_.take();
    outcome.datafiles.clear();
    return outcome;
  }
  std::sort(outcome.datafiles.begin(), outcome.datafiles.end(),
            [](const DataFilePatch& a, const DataFilePatch& b) { return a.datafile < b.datafile; });
  outcome.document_changes = std::move(document_changes_);
  return outcome;
}

}  // namespace archive

ArchivePatchOutcome apply_archive_patch(LevelSet& set, const rapidjson::Value& patch, const PatchOptions& options,
                                        const archive::KnownIds* known) {
  ArchivePatchOutcome outcome;
  if ((outcome.error = check_patch_shape(patch))) return outcome;
  try {
    return archive::Router(set, patch, options, known).run();
  } catch (const std::exception& e) {
    outcome.error = PatchError{PatchError::kWholePatch, "", std::string("internal error: ") + e.what(), kBadPatch};
  }
  return outcome;
}

ArchivePatchOutcome apply_archive_patch_text(LevelSet& set, std::string_view patch_json, const PatchOptions& options) {
  rapidjson::Document doc;
  if (auto error = parse_patch_text(patch_json, doc)) {
    ArchivePatchOutcome outcome;
    outcome.error = std::move(error);
    return outcome;
  }
  return apply_archive_patch(set, doc, options);
}

}  // namespace anvil::patch
