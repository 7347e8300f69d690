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
#include "pipeline/mods/mod_commands.hpp"

namespace anvil::mods {

absl::Status prepare_state_folders(const std::string& dir);

namespace {

// The folder the restored archives are made in, removed whatever happens.
struct WorkFolder {
  std::string path;
  ~WorkFolder() {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

// The mods that stay, read back from their documents, in load order.
absl::StatusOr<std::vector<LoadedMod>> staying_mods(const std::string& dir, const ModState& state,
                                                    const std::set<std::string>& removed) {
  std::vector<LoadedMod> out;
  for (const InstalledMod& m : state.mods) {
    if (removed.count(m.name)) continue;
    auto mod = load_mod(in_folder(dir, document_relative(m.name)));
    if (!mod.ok()) return mod.status();
    mod->doc.name = m.name;
    out.push_back(std::move(*mod));
  }
  return out;
}

// Each archive a mod changed restored to its original bytes in the work folder: where each copy is, by name.
absl::StatusOr<std::map<std::string, std::string>> restore_originals(const std::string& dir, const ModState& state,
                                                                     const WorkFolder& work) {
  std::error_code ec;
  std::filesystem::create_directories(work.path, ec);
  if (ec) return absl::InternalError(absl::StrFormat("%s: %s", work.path, ec.message()));
  std::map<std::string, std::string> restored;
  for (const auto& [name, record] : state.archives) {
    auto undo = read_undo_file(in_folder(dir, undo_relative(name)));
    if (!undo.ok()) return undo.status();
    restored[name] = (std::filesystem::path(work.path) / name).string();
    if (auto s = restore_original(in_folder(dir, name), *undo, restored[name]); !s.ok()) return s;
  }
  return restored;
}

}  // namespace

absl::StatusOr<WriteReport> uninstall_mods(const std::string& dir, const std::vector<std::string>& names) {
  WriteReport report;
  auto game = open_for_change(dir, report);
  if (!game.ok()) return game.status();
  auto txn = folder::FolderTransaction::begin(dir, game->take_lock(), "mod uninstall " + absl::StrJoin(names, " "));
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
  WorkFolder work{in_folder(dir, ".anvilrt/mods/work")};
  auto originals = restore_originals(dir, *state, work);
  if (!originals.ok()) return originals.status();
  const std::map<std::string, std::string>& restored = *originals;
  auto mods = staying_mods(dir, *state, removed);
  if (!mods.ok()) return mods.status();
  // The folder as the mods that stay see it: the restored archives, and the others as they are.
  game->read_from = restored;
  // Closed (unmapped) before the commit: Windows renames no file over a mapped one.
  std::optional<folder::FolderLevels> folder_open(std::in_place, std::move(*game));
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
      if (p.archive == a && p.outcome.edited_objects() > 0) patched = &p;
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
  const std::string text = state_text(after);
  if (auto s = txn->stage(state_relative(), {reinterpret_cast<const u8*>(text.data()), text.size()}); !s.ok()) return s;
  folder_open.reset();
  if (auto s = txn->commit(); !s.ok()) return s;
  for (const std::string& name : names) report.notes.push_back(absl::StrFormat("uninstalled %s", name));
  return report;
}

}  // namespace anvil::mods
