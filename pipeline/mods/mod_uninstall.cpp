// `anvilrt mod uninstall` (pipeline/mods/mod_commands.hpp): the mods that stay, in their order, made the
// folder's load order (load_order.hpp): every archive a mod changed restored to its original bytes and
// those mods applied again, as install applies them: the folder is then what installing them alone gives.
#include <absl/strings/str_format.h>
#include <absl/strings/str_join.h>

#include <algorithm>
#include <set>
#include <utility>

#include "pipeline/folder_archives.hpp"
#include "pipeline/folder_transaction.hpp"
#include "pipeline/mods/kept_data.hpp"
#include "pipeline/mods/load_order.hpp"
#include "pipeline/mods/mod_commands.hpp"

namespace anvil::mods {
namespace {

// The mods that stay, read back from their documents, in load order: each keeps its place, its digest and
// every settled conflict with another.
absl::Status stay_in_order(const std::string& dir, const ModState& state, const std::set<std::string>& removed,
                           LoadOrder& order) {
  for (const InstalledMod& m : state.mods) {
    if (removed.count(m.name)) continue;
    auto mod = load_installed_mod(dir, m.name);
    if (!mod.ok()) return mod.status();
    if (!m.digest.empty()) mod->digest = m.digest;
    for (const LoadedMod& earlier : order.mods) order.settled.insert({earlier.doc.name, m.name});
    order.mods.push_back(std::move(*mod));
    order.write_document.push_back(false);
  }
  return absl::OkStatus();
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
  LoadOrder order;
  order.removed = names;
  order.touch_unrecorded = false;
  order.done = "uninstalled";
  order.refused_failing = "not uninstalled: a mod that stays no longer applies without those removed (see above)";
  if (auto s = stay_in_order(dir, *state, removed, order); !s.ok()) return s;
  if (auto s = write_load_order(dir, *txn, *state, order, report); !s.ok()) return s;
  if (report.refused) return report;
  for (const std::string& name : names) report.notes.push_back(absl::StrFormat("uninstalled %s", name));
  return report;
}

}  // namespace anvil::mods
