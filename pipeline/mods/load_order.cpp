#include "pipeline/mods/load_order.hpp"

#include <absl/strings/str_format.h>
#include <absl/strings/str_join.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <optional>

#include "pipeline/folder_archives.hpp"
#include "pipeline/folder_output.hpp"
#include "pipeline/mods/archive_stage.hpp"
#include "pipeline/mods/kept_data.hpp"
#include "pipeline/mods/original_folder.hpp"
#include "platform/paths.hpp"

namespace anvil::mods {
namespace {

// Reports bytes done of an estimated whole that may grow once the archives to write are known.
struct ProgressCount {
  const ProgressFn& fn;
  std::size_t done = 0, total = 0;
  void add(std::size_t bytes) {
    done += bytes;
    if (fn) fn(std::min(done, total), total);
  }
};

// The conflicts of the analysis that were not settled before: refused, or let through as overrides.
std::vector<Conflict> unsettled(const std::vector<Conflict>& all, const LoadOrder& order) {
  std::vector<Conflict> out;
  for (const Conflict& c : all)
    if (!order.settled.count({c.earlier, c.later})) out.push_back(c);
  return out;
}

// Refuses (in `report`) when an operation fails or mods conflict unless that is allowed; notes the overrides.
bool accept_analysis(Analysis& analysis, const LoadOrder& order, WriteReport& report) {
  report.check = std::move(analysis.report);
  report.check.conflicts = unsettled(report.check.conflicts, order);
  // A mod kept as it was was warned about when it was installed.
  for (std::size_t m = 0; m < report.check.mods.size() && m < order.write_document.size(); ++m)
    if (order.write_document[m])
      for (const std::string& w : report.check.mods[m].warnings)
        report.notes.push_back(absl::StrFormat("warning: mod %s: %s", report.check.mods[m].name, w));
  if (!analysis.outcome) {
    report.refused = true;
    report.refusal = order.refused_failing;
  } else if (!report.check.conflicts.empty() && !order.allow_overrides) {
    report.refused = true;
    report.refusal =
        absl::StrFormat("not %s: mods conflict (see above); --allow-overrides lets the later mod win", order.done);
  }
  if (report.refused) return false;
  for (const Conflict& c : report.check.conflicts) report.notes.push_back(override_line(c));
  return true;
}

// The archive of the folder patch that edits archive `a`, if any.
const folder::ArchivePatch* edits_of(const folder::FolderPatchOutcome& outcome, std::size_t a) {
  for (const folder::ArchivePatch& p : outcome.archives)
    if (p.archive == a && p.writes()) return &p;
  return nullptr;
}

// Stages every archive: the load order's edits over the originals, or an original given back whole.
absl::Status stage_archives(folder::FolderTransaction& txn, folder::FolderLevels& levels,
                            const folder::FolderPatchOutcome& outcome, const ModState& state, const LoadOrder& order,
                            const std::map<std::string, std::string>& restored, ModState& after, WriteReport& report,
                            ProgressCount& progress) {
  auto skipped = [&](std::size_t a) { return !order.touch_unrecorded && !state.archives.count(levels.name(a)); };
  for (std::size_t a = 0; a < levels.size(); ++a)
    if (!skipped(a) && edits_of(outcome, a)) progress.total += levels.input(a).bytes().size();
  for (std::size_t a = 0; a < levels.size(); ++a) {
    if (skipped(a)) continue;
    const std::string& name = levels.name(a);
    auto known = state.archives.find(name);
    if (const folder::ArchivePatch* patched = edits_of(outcome, a)) {
      // Read from its original bytes (or as it is, when no mod changed it): the undo data starts anew.
      const u64 size = levels.input(a).bytes().size();
      ArchiveUndo undo{size, {}};
      ArchiveRecord record = known != state.archives.end() ? known->second : ArchiveRecord{size, {}, {}, {}};
      if (auto s = stage_archive(txn, levels, *patched, undo, record); !s.ok()) return s;
      after.archives[name] = record;
      report.notes.push_back(archive_written_line(name, *patched, undo));
      progress.add(size);
      continue;
    }
    if (known == state.archives.end()) continue;
    // No mod changes it any more: its original bytes, and no undo data.
    if (auto s = folder::stage_copy(txn, name, restored.at(name)); !s.ok()) return s;
    if (auto s = txn.stage_removal(undo_relative(name)); !s.ok()) return s;
    report.notes.push_back(absl::StrFormat("%s: back to its original bytes", name));
  }
  return absl::OkStatus();
}

// Stages the documents of the mods written anew and the removal of those that go, with the data files they
// replace (kept_data.hpp), then the state.
absl::Status stage_documents(const std::string& dir, folder::FolderTransaction& txn, const LoadOrder& order,
                             const ModState& after) {
  if (auto s = stage_kept_data(txn, dir, order.mods, &order.write_document); !s.ok()) return s;
  std::vector<LoadedMod> gone;
  for (const std::string& name : order.removed) {
    auto mod = load_mod(in_folder(dir, document_relative(name)));
    if (!mod.ok()) return mod.status();
    gone.push_back(std::move(*mod));
  }
  if (auto s = stage_unkept_data(txn, gone, order.mods); !s.ok()) return s;
  for (std::size_t m = 0; m < order.mods.size(); ++m) {
    if (!order.write_document[m]) continue;
    const std::string& text = order.mods[m].text;
    if (auto s = txn.stage(document_relative(order.mods[m].doc.name),
                           {reinterpret_cast<const u8*>(text.data()), text.size()});
        !s.ok())
      return s;
  }
  for (const std::string& name : order.removed)
    if (auto s = txn.stage_removal(document_relative(name)); !s.ok()) return s;
  const std::string text = state_text(after);
  return txn.stage(state_relative(), {reinterpret_cast<const u8*>(text.data()), text.size()});
}

}  // namespace

absl::Status refuse_if_changed(const std::string& dir, ModState& state, const std::string& done) {
  if (auto stale = changed_behind_our_back(dir, state, Scrutiny::content); !stale.empty())
    return absl::FailedPreconditionError(absl::StrFormat(
        "%s: %s changed since anvilrt last wrote it; nothing %s (`anvilrt mod forget %s ARCHIVE` takes it as it "
        "is now)",
        dir, absl::StrJoin(stale, ", "), done, dir));
  return absl::OkStatus();
}

absl::Status write_load_order(const std::string& dir, folder::FolderTransaction& txn, const ModState& state,
                              const LoadOrder& order, WriteReport& report, const ProgressFn& progress_fn) {
  ModState looked_at = state;
  if (auto s = refuse_if_changed(dir, looked_at, order.done); !s.ok()) return s;
  if (auto s = prepare_state_folders(dir); !s.ok()) return s;
  ProgressCount progress{progress_fn};
  for (const auto& [name, record] : state.archives) progress.total += 2 * record.original_size;
  // The folder as the load order sees it: the restored archives, and the others as they are.
  auto originals = open_original_folder(dir, state, [&](u64 size) { progress.add(size); });
  if (!originals.ok()) return originals.status();
  const std::map<std::string, std::string>* restored = &originals->restored;
  // Closed (unmapped) before the commit: Windows renames no file over a mapped one.
  std::optional<folder::FolderLevels> folder_open(std::in_place, std::move(originals->folder));
  folder::FolderLevels& levels = *folder_open;
  auto analysis = analyse(dir, ModState{}, levels, order.mods);
  if (!analysis.ok()) return analysis.status();
  if (!accept_analysis(*analysis, order, report)) return absl::OkStatus();
  ModState after;
  for (std::size_t m = 0; m < order.mods.size(); ++m)
    after.mods.push_back({order.mods[m].doc.name, report.check.mods[m].effect, order.mods[m].digest});
  // The estimate counted each restored archive twice; what is written is now known.
  progress.total = progress.done;
  if (auto s = stage_archives(txn, levels, *analysis->outcome, state, order, *restored, after, report, progress);
      !s.ok())
    return s;
  if (auto s = stage_documents(dir, txn, order, after); !s.ok()) return s;
  folder_open.reset();
  return txn.commit();
}

}  // namespace anvil::mods
