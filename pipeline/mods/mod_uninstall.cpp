// `anvilrt mod uninstall` (pipeline/mods/mod_commands.hpp): every archive a mod changed is restored to its
// original bytes (its undo data written back, its length cut), and the mods that stay are applied again,
// in their order, as install applies them: the folder is then what installing those alone would give.
#include <absl/strings/str_format.h>
#include <absl/strings/str_join.h>

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <utility>

#include "pipeline/folder_archives.hpp"
#include "pipeline/folder_output.hpp"
#include "pipeline/folder_transaction.hpp"
#include "pipeline/mods/archive_stage.hpp"
#include "pipeline/mods/kept_data.hpp"
#include "pipeline/mods/mod_commands.hpp"
#include "pipeline/mods/original_folder.hpp"

namespace anvil::mods {

absl::Status prepare_state_folders(const std::string& dir);

namespace {

// The installed mods, read back as kept (kept_data.hpp), in load order: those that stay (`removed` false) or
// those removed.
absl::StatusOr<std::vector<LoadedMod>> kept_mods(const std::string& dir, const ModState& state,
                                                 const std::set<std::string>& removed, bool of_removed) {
  std::vector<LoadedMod> out;
  for (const InstalledMod& m : state.mods) {
    if (removed.count(m.name) != static_cast<std::size_t>(of_removed)) continue;
    auto mod = load_installed_mod(dir, m.name);
    if (!mod.ok()) return mod.status();
    out.push_back(std::move(*mod));
  }
  return out;
}

}  // namespace

absl::StatusOr<WriteReport> uninstall_mods(const std::string& dir, const std::vector<std::string>& names) {
  if (auto s = folder::check_game_folder(dir); !s.ok()) return s;
  WriteReport report;
  auto txn = folder::FolderTransaction::begin(dir, "mod uninstall " + absl::StrJoin(names, " "), &report.recovered);
  if (!txn.ok()) return txn.status();
  auto state = load_state(dir);
  if (!state.ok()) return state.status();
  std::set<std::string> removed;
  for (const std::string& name : names) {
    if (std::none_of(state->mods.begin(), state->mods.end(), [&](const InstalledMod& m) { return m.name == name; }))
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: no mod '%s' is installed (see anvilrt mod list %s)", dir, name, dir));
    removed.insert(name);
  }
  if (auto stale = changed_behind_our_back(dir, *state, Scrutiny::content); !stale.empty())
    return absl::FailedPreconditionError(absl::StrFormat(
        "%s: %s changed since anvilrt last wrote it; nothing uninstalled (`anvilrt mod forget %s ARCHIVE` takes it "
        "as it is now)",
        dir, absl::StrJoin(stale, ", "), dir));
  if (auto s = prepare_state_folders(dir); !s.ok()) return s;
  // The folder as the mods that stay see it: the restored archives, and the others as they are.
  auto originals = open_original_folder(dir, *state);
  if (!originals.ok()) return originals.status();
  const std::map<std::string, std::string>& restored = originals->restored;
  auto mods = kept_mods(dir, *state, removed, false);
  if (!mods.ok()) return mods.status();
  auto gone = kept_mods(dir, *state, removed, true);
  if (!gone.ok()) return gone.status();
  // Closed (unmapped) before the commit: Windows renames no file over a mapped one.
  std::optional<folder::FolderLevels> folder_open(std::in_place, std::move(originals->folder));
  folder::FolderLevels& levels = *folder_open;
  ModState after;
  auto analysis = analyse(dir, after, levels, *mods);
  if (!analysis.ok()) return analysis.status();
  if (!analysis->outcome) {
    report.check = std::move(analysis->report);
    report.refused = true;
    report.refusal = "not uninstalled: a mod that stays no longer applies without those removed (see above)";
    return report;
  }
  for (std::size_t m = 0; m < mods->size(); ++m)
    after.mods.push_back({(*mods)[m].doc.name, analysis->report.mods[m].effect});
  for (std::size_t a = 0; a < levels.size(); ++a) {
    const std::string& name = levels.name(a);
    auto known = state->archives.find(name);
    if (known == state->archives.end()) continue;  // no mod's change is left to undo there (or it was forgotten)
    const folder::ArchivePatch* patched = nullptr;
    for (const folder::ArchivePatch& p : analysis->outcome->archives)
      if (p.archive == a && p.writes()) patched = &p;
    if (patched) {
      auto opened = levels.levels(a);
      if (!opened.ok()) return opened.status();
      ArchiveUndo undo{levels.input(a).bytes().size(), {}};
      ArchiveRecord record = known->second;
      if (auto s = stage_archive(*txn, levels, *patched, undo, record); !s.ok()) return s;
      after.archives[name] = record;
      continue;
    }
    // No mod changes it any more: its original bytes, and no undo data.
    if (auto s = folder::stage_copy(*txn, name, restored.at(name)); !s.ok()) return s;
    if (auto s = txn->stage_removal(undo_relative(name)); !s.ok()) return s;
    report.notes.push_back(absl::StrFormat("%s: back to its original bytes", name));
  }
  for (const std::string& name : names)
    if (auto s = txn->stage_removal(document_relative(name)); !s.ok()) return s;
  if (auto s = stage_unkept_data(*txn, *gone, *mods); !s.ok()) return s;
  const std::string text = state_text(after);
  if (auto s = txn->stage(state_relative(), {reinterpret_cast<const u8*>(text.data()), text.size()}); !s.ok()) return s;
  folder_open.reset();
  if (auto s = txn->commit(); !s.ok()) return s;
  for (const std::string& name : names) report.notes.push_back(absl::StrFormat("uninstalled %s", name));
  return report;
}

}  // namespace anvil::mods
