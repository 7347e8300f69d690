// `anvilrt mod install` and `anvilrt mod forget` (pipeline/mods/mod_commands.hpp).
#include <absl/strings/str_format.h>
#include <absl/strings/str_join.h>

#include <filesystem>
#include <optional>
#include <set>
#include <utility>

#include "pipeline/folder_archives.hpp"
#include "pipeline/folder_transaction.hpp"
#include "pipeline/mods/archive_stage.hpp"
#include "pipeline/mods/given_mods.hpp"
#include "pipeline/mods/kept_data.hpp"
#include "pipeline/mods/load_order.hpp"
#include "pipeline/mods/mod_commands.hpp"
#include "platform/paths.hpp"

namespace anvil::mods {
namespace {

absl::Status check_names(const ModState& state, const std::vector<LoadedMod>& mods) {
  std::set<std::string> names;
  for (const InstalledMod& m : state.mods) names.insert(m.name);
  for (const LoadedMod& m : mods)
    if (!names.insert(m.doc.name).second)
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: the mod '%s' is installed already or given twice (uninstall it first, or rename it)",
                          m.path, m.doc.name));
  return absl::OkStatus();
}

std::string intent(const char* command, const std::vector<std::string>& words) {
  return absl::StrFormat("mod %s %s", command, absl::StrJoin(words, " "));
}

}  // namespace

absl::StatusOr<folder::GameFolder> open_for_change(const std::string& dir, WriteReport& report,
                                                   bool archives_required) {
  auto game = folder::open_game_folder(dir, {.use = folder::FolderUse::change, .archives_required = archives_required});
  if (game.ok() && !game->recovered.empty()) report.recovered.push_back(game->recovered);
  return game;
}

absl::Status prepare_state_folders(const std::string& dir) {
  std::error_code ec;
  for (const char* sub : {".anvilrt/mods/docs", ".anvilrt/mods/undo", ".anvilrt/mods/data"}) {
    std::filesystem::create_directories(platform::path_of(in_folder(dir, sub)), ec);
    if (ec) return absl::InternalError(absl::StrFormat("%s: %s", in_folder(dir, sub), ec.message()));
  }
  return absl::OkStatus();
}

absl::StatusOr<WriteReport> install_mods(const std::string& dir, const std::vector<std::string>& mod_paths,
                                         const ModOptions& options, const ProgressFn& progress) {
  auto given = read_given_mods(mod_paths);
  if (!given.ok()) return given.status();
  WriteReport report;
  auto game = open_for_change(dir, report);
  if (!game.ok()) return game.status();
  auto txn = folder::FolderTransaction::begin(dir, game->take_lock(), intent("install", mod_paths));
  if (!txn.ok()) return txn.status();
  auto state = load_state(dir);
  if (!state.ok()) return state.status();
  // Closed (unmapped) before the commit: Windows renames no file over a mapped one.
  std::optional<folder::FolderLevels> folder_open(std::in_place, std::move(*game));
  folder::FolderLevels& levels = *folder_open;
  auto resolved = resolve_given_mods(std::move(*given), &dir, &*state, &levels, options.allow_new);
  if (!resolved.ok()) return resolved.status();
  const std::vector<LoadedMod>& mods = *resolved;
  if (auto s = check_names(*state, mods); !s.ok()) return s;
  auto analysis = analyse(dir, *state, levels, mods);
  if (!analysis.ok()) return analysis.status();
  report.check = std::move(analysis->report);
  for (const ModReport& m : report.check.mods)
    for (const std::string& w : m.warnings) report.notes.push_back(absl::StrFormat("warning: mod %s: %s", m.name, w));
  if (!analysis->outcome) {
    report.refused = true;
    report.refusal = "not installed: an operation of a mod fails (see above)";
    return report;
  }
  if (!report.check.conflicts.empty() && !options.allow_overrides) {
    report.refused = true;
    report.refusal = "not installed: mods conflict (see above); --allow-overrides lets the later mod win";
    return report;
  }
  for (const Conflict& c : report.check.conflicts) report.notes.push_back(override_line(c));
  if (auto s = prepare_state_folders(dir); !s.ok()) return s;
  std::size_t written = 0, to_write = 0;
  for (const folder::ArchivePatch& patched : analysis->outcome->archives)
    if (patched.writes()) to_write += levels.input(patched.archive).bytes().size();
  for (const folder::ArchivePatch& patched : analysis->outcome->archives) {
    if (!patched.writes()) continue;
    const std::string& name = levels.name(patched.archive);
    auto known = state->archives.find(name);
    // Its undo data is only as good as the bytes it was taken from: read them all before writing.
    if (known != state->archives.end() && !as_anvilrt_left_it(dir, name, known->second, Scrutiny::content))
      return absl::FailedPreconditionError(absl::StrFormat(
          "%s: changed since anvilrt last wrote it; nothing installed (`anvilrt mod forget %s %s` takes it as it "
          "is now)",
          in_folder(dir, name), dir, name));
    const u64 size = levels.input(patched.archive).bytes().size();
    ArchiveUndo undo{size, {}};
    ArchiveRecord record{size, {}, {}, {}};
    if (known != state->archives.end()) {
      auto read = read_undo_file(in_folder(dir, undo_relative(name)));
      if (!read.ok()) return read.status();
      undo = std::move(*read);
      record = known->second;
    }
    if (auto s = stage_archive(*txn, levels, patched, undo, record); !s.ok()) return s;
    state->archives[name] = record;
    written += size;
    if (progress) progress(written, to_write);
    report.notes.push_back(archive_written_line(name, patched, undo));
  }
  if (auto s = stage_kept_data(*txn, dir, mods); !s.ok()) return s;
  const std::size_t installed = state->mods.size();
  for (std::size_t m = 0; m < mods.size(); ++m) {
    if (auto s = txn->stage(document_relative(mods[m].doc.name),
                            {reinterpret_cast<const u8*>(mods[m].text.data()), mods[m].text.size()});
        !s.ok())
      return s;
    state->mods.push_back({mods[m].doc.name, report.check.mods[installed + m].effect, mods[m].digest});
  }
  const std::string text = state_text(*state);
  if (auto s = txn->stage(state_relative(), {reinterpret_cast<const u8*>(text.data()), text.size()}); !s.ok()) return s;
  folder_open.reset();
  if (auto s = txn->commit(); !s.ok()) return s;
  for (const LoadedMod& m : mods) report.notes.push_back(absl::StrFormat("installed %s", m.doc.name));
  return report;
}

absl::StatusOr<WriteReport> forget_archive(const std::string& dir, const std::string& archive) {
  WriteReport report;
  auto game = open_for_change(dir, report, false);
  if (!game.ok()) return game.status();
  auto txn = folder::FolderTransaction::begin(dir, game->take_lock(), intent("forget", {archive}));
  if (!txn.ok()) return txn.status();
  auto state = load_state(dir);
  if (!state.ok()) return state.status();
  if (!state->archives.count(archive))
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: no installed mod changed the archive %s (see anvilrt mod list)", dir, archive));
  state->archives.erase(archive);
  if (auto s = txn->stage_removal(undo_relative(archive)); !s.ok()) return s;
  const std::string text = state_text(*state);
  if (auto s = txn->stage(state_relative(), {reinterpret_cast<const u8*>(text.data()), text.size()}); !s.ok()) return s;
  if (auto s = txn->commit(); !s.ok()) return s;
  report.notes.push_back(absl::StrFormat(
      "%s: taken as it is now; the mods' changes to it are no longer undone or re-applied by anvilrt", archive));
  return report;
}

}  // namespace anvil::mods
