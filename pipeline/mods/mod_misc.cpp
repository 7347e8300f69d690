// `anvilrt mod list`, `mod merge` and `mod recover` (pipeline/mods/mod_commands.hpp).
#include <absl/strings/str_format.h>
#include <absl/strings/str_join.h>

#include <filesystem>
#include <optional>
#include <utility>

#include "pipeline/folder_archives.hpp"
#include "pipeline/folder_transaction.hpp"
#include "pipeline/game_folder.hpp"
#include "pipeline/mods/given_mods.hpp"
#include "pipeline/mods/mod_commands.hpp"
#include "platform/replace_file.hpp"

namespace anvil::mods {

absl::StatusOr<CheckReport> list_mods(const std::string& dir) {
  // Opened (an interrupted transaction finished) before the state is read: the state is the folder's.
  auto opened = folder::open_game_folder(dir, {.archives_required = false});
  if (!opened.ok()) return opened.status();
  auto state = load_state(dir);
  if (!state.ok()) return state.status();
  CheckReport report;
  report.dir = dir;
  report.recovered = opened->recovered;
  report.changed_archives = changed_behind_our_back(dir, *state, Scrutiny::stamp);
  std::vector<NamedEffect> order;
  for (const InstalledMod& m : state->mods) order.push_back({m.name, &m.effect});
  const std::vector<Conflict> overrides = find_conflicts(order, 0);
  for (const InstalledMod& m : state->mods) {
    // The document kept at install time names its version and author.
    auto doc = load_mod(in_folder(dir, document_relative(m.name)));
    if (!doc.ok()) return doc.status();
    ModReport r{m.name, true, m.effect, {}, {}, doc->doc.version, doc->doc.author, {}};
    for (const Conflict& c : overrides)
      if (c.earlier == m.name) r.lost.push_back(c);
    report.mods.push_back(std::move(r));
  }
  return report;
}

namespace {

// The conflicts between the mods to merge, on the folder `dir` as it is (its installed mods aside): a
// refusal unless `allow_overrides`, else each override named in `report`.
absl::Status check_merge(const std::string& dir, const std::vector<LoadedMod>& mods, bool allow_overrides,
                         WriteReport& report) {
  auto game = folder::open_game_folder(dir);
  if (!game.ok()) return game.status();
  folder::FolderLevels levels(std::move(*game));
  if (!levels.folder().recovered.empty()) report.recovered.push_back(levels.folder().recovered);
  auto analysis = analyse(dir, ModState{}, levels, mods);
  if (!analysis.ok()) return analysis.status();
  report.check = std::move(analysis->report);
  if (!analysis->outcome) {
    report.refused = true;
    report.refusal = "not merged: an operation of a mod fails on " + dir + " (see above)";
  } else if (!report.check.conflicts.empty() && !allow_overrides) {
    report.refused = true;
    report.refusal = "not merged: mods conflict (see above); --allow-overrides lets the later mod win";
  }
  for (const Conflict& c : report.check.conflicts) report.notes.push_back(override_line(c));
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<WriteReport> merge_mods(const std::vector<std::string>& mod_paths, const std::string& out,
                                       const MergeOptions& options) {
  auto given = read_given_mods(mod_paths);
  if (!given.ok()) return given.status();
  std::optional<ModState> state;
  if (options.onto) {
    if (auto s = folder::check_game_folder(*options.onto); !s.ok()) return s;
    auto loaded = load_state(*options.onto);
    if (!loaded.ok()) return loaded.status();
    state = std::move(*loaded);
  }
  auto resolved = resolve_given_mods(std::move(*given), options.onto ? &*options.onto : nullptr,
                                     state ? &*state : nullptr, nullptr, options.allow_new);
  if (!resolved.ok()) return resolved.status();
  const std::vector<LoadedMod>& mods = *resolved;
  // A document carries operations, not a data file's bytes: a package that replaces bytes outside objects, or
  // adds a data file, is installed as itself.
  for (const LoadedMod& m : mods) {
    if (!m.doc.replaces.empty())
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s: changes %s outside its objects, which a merged document cannot carry; install the package itself",
          m.path, m.doc.replaces.begin()->first));
    if (!m.doc.adds.empty())
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: adds the data file %s, which a merged document cannot carry; install the package itself",
                          m.path, m.doc.adds.begin()->first));
  }
  WriteReport report;
  if (options.onto) {
    if (auto s = check_merge(*options.onto, mods, options.allow_overrides, report); !s.ok()) return s;
    if (report.refused) return report;
  }
  patch::ModDocument merged;
  merged.name = std::filesystem::path(out).stem().string();
  if (auto bad = patch::bad_mod_name(merged.name))
    return absl::InvalidArgumentError(absl::StrFormat("%s: names the mod '%s', which %s", out, merged.name, *bad));
  std::vector<std::string> names;
  std::vector<const patch::ModDocument*> docs;
  for (const LoadedMod& m : mods) {
    names.push_back(m.doc.name);
    docs.push_back(&m.doc);
    if (m.doc.game && merged.game && *m.doc.game != *merged.game)
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: made for the game %s, an earlier mod for %s", m.path, *m.doc.game, *merged.game));
    if (m.doc.game) merged.game = m.doc.game;
    for (const auto& [archive, hash] : m.doc.made_for) {
      auto [it, inserted] = merged.made_for.emplace(archive, hash);
      if (!inserted && it->second != hash)
        return absl::InvalidArgumentError(
            absl::StrFormat("%s: member 'made_for/%s': made for another %s (sha256 %s) than an earlier mod (%s)",
                            m.path, archive, archive, hash, it->second));
    }
  }
  merged.description = "merged from " + absl::StrJoin(names, ", ") + ", in that order";
  merged.patch = concatenated(docs, nullptr);
  const std::string text = patch::mod_text(merged);
  platform::AtomicFile file;
  if (auto s = file.open(out); !s.ok()) return s;
  if (std::fwrite(text.data(), 1, text.size(), file.stream()) != text.size())
    return absl::InternalError(absl::StrFormat("%s: cannot write", out));
  if (auto s = file.commit(); !s.ok()) return s;
  report.notes.push_back(absl::StrFormat("merged %s into %s", absl::StrJoin(names, ", "), out));
  return report;
}

absl::StatusOr<std::string> recover(const std::string& dir) {
  if (auto s = folder::check_game_folder(dir); !s.ok()) return s;
  auto opened = folder::open_game_folder(dir, {.archives_required = false});
  if (!opened.ok()) return opened.status();
  return opened->recovered;
}

}  // namespace anvil::mods
