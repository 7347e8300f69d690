// `anvilrt mod sync` (mod_sync.hpp): the plan (which mods stay, come, go, change or move) from the mods'
// identities and the folder's state alone, then, when there is something to do, the load order written
// under the folder's lock (load_order.hpp).
#include "pipeline/mods/mod_sync.hpp"

#include <absl/strings/str_format.h>
#include <absl/strings/str_join.h>

#include <algorithm>
#include <map>
#include <set>
#include <utility>

#include "pipeline/folder_archives.hpp"
#include "pipeline/folder_transaction.hpp"
#include "pipeline/game_folder.hpp"
#include "pipeline/mods/given_mods.hpp"
#include "pipeline/mods/kept_data.hpp"
#include "pipeline/mods/load_order.hpp"
#include "pipeline/mods/mod_identity.hpp"
#include "reader/input_file.hpp"

namespace anvil::mods {
namespace {

enum class Fate {
  kept,       // installed, the same files, its place in the order kept
  moved,      // installed, the same files, moved against the mods that stay
  changed,    // installed under that name with other files (another version)
  installed,  // not installed before
};

struct SyncPlan {
  std::vector<ModIdentity> mods;  // as given
  std::vector<Fate> fates;        // of each
  std::vector<std::string> removed;
  std::set<std::pair<std::string, std::string>> settled;  // (earlier, later): conflicts settled before

  bool nothing_to_do() const {
    return removed.empty() && std::all_of(fates.begin(), fates.end(), [](Fate f) { return f == Fate::kept; });
  }
};

// Whether installed mod `m` has the files `digest` names: its kept digest, or in a state written before
// digests were kept, its kept document's text.
bool same_files(const std::string& dir, const InstalledMod& m, const std::string& digest) {
  if (!m.digest.empty()) return m.digest == digest;
  auto kept = InputFile::open(in_folder(dir, document_relative(m.name)));
  if (!kept.ok()) return false;  // installed again from the given file, which then writes its document
  return document_digest({reinterpret_cast<const char*>(kept->bytes().data()), kept->bytes().size()}) == digest;
}

// Of `positions` (the old places of the unchanged mods, in the new order), which are not in one longest
// increasing run: the fewest mods that moved for the others to keep their order.
std::vector<bool> moved_among(const std::vector<std::size_t>& positions) {
  const std::size_t n = positions.size();
  std::vector<std::size_t> length(n, 1), before(n, n);
  std::size_t best = n;
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < i; ++j)
      if (positions[j] < positions[i] && length[j] + 1 > length[i]) {
        length[i] = length[j] + 1;
        before[i] = j;
      }
    if (best == n || length[i] > length[best]) best = i;
  }
  std::vector<bool> moved(n, true);
  for (std::size_t i = best; i < n; i = before[i]) moved[i] = false;
  return moved;
}

SyncPlan plan_sync(const std::string& dir, const ModState& state, const std::vector<ModIdentity>& mods) {
  SyncPlan plan;
  plan.mods = mods;
  std::map<std::string, std::size_t> old_place;
  for (std::size_t i = 0; i < state.mods.size(); ++i) old_place[state.mods[i].name] = i;
  std::vector<std::size_t> unchanged, positions;  // indices into mods, and their old places
  for (std::size_t i = 0; i < mods.size(); ++i) {
    auto old = old_place.find(mods[i].name);
    if (old == old_place.end()) {
      plan.fates.push_back(Fate::installed);
      continue;
    }
    const bool same = same_files(dir, state.mods[old->second], mods[i].digest);
    plan.fates.push_back(same ? Fate::kept : Fate::changed);
    if (same) {
      unchanged.push_back(i);
      positions.push_back(old->second);
    }
  }
  const std::vector<bool> moved = moved_among(positions);
  for (std::size_t k = 0; k < unchanged.size(); ++k) {
    if (moved[k]) plan.fates[unchanged[k]] = Fate::moved;
    for (std::size_t l = k + 1; l < unchanged.size(); ++l)
      if (positions[k] < positions[l]) plan.settled.insert({mods[unchanged[k]].name, mods[unchanged[l]].name});
  }
  std::set<std::string> given;
  for (const ModIdentity& m : mods) given.insert(m.name);
  for (const InstalledMod& m : state.mods)
    if (!given.count(m.name)) plan.removed.push_back(m.name);
  return plan;
}

// Whether every archive mods changed has the stamp anvilrt left it with: its size and time, not its bytes.
bool stamps_as_left(const std::string& dir, const ModState& state) {
  for (const auto& [name, record] : state.archives) {
    auto now = stamp_of(in_folder(dir, name));
    if (!now.ok() || !(*now == record.stamp)) return false;
  }
  return true;
}

// The plan's load order: a mod that stays read back from its document (as installed), the others from the
// files given.
absl::StatusOr<LoadOrder> load_order_of(const std::string& dir, const ModState& state, const SyncPlan& plan,
                                        const ModOptions& options) {
  LoadOrder order;
  order.removed = plan.removed;
  order.settled = plan.settled;
  order.allow_overrides = options.allow_overrides;
  order.done = "synced";
  order.refused_failing = "not synced: an operation of a mod fails (see above)";
  auto stays = [&](std::size_t i) { return plan.fates[i] == Fate::kept || plan.fates[i] == Fate::moved; };
  // The mods given anew, read at once: their packages compared with the folder's originals restored once.
  std::vector<std::string> given_paths;
  for (std::size_t i = 0; i < plan.mods.size(); ++i)
    if (!stays(i)) given_paths.push_back(plan.mods[i].path);
  auto given = load_given_mods(given_paths, &dir, &state, options.allow_new);
  if (!given.ok()) return given.status();
  std::size_t next_given = 0;
  for (std::size_t i = 0; i < plan.mods.size(); ++i) {
    if (stays(i)) {
      auto mod = load_installed_mod(dir, plan.mods[i].name);
      if (!mod.ok()) return mod.status();
      mod->digest = plan.mods[i].digest;
      order.mods.push_back(std::move(*mod));
    } else {
      order.mods.push_back(std::move((*given)[next_given++]));
    }
    order.write_document.push_back(!stays(i));
  }
  return order;
}

// What the plan does, in the report's lists.
void describe_plan(const SyncPlan& plan, SyncReport& report) {
  for (std::size_t i = 0; i < plan.mods.size(); ++i) {
    if (plan.fates[i] == Fate::installed) report.installed.push_back(plan.mods[i].name);
    if (plan.fates[i] == Fate::changed || plan.fates[i] == Fate::moved) report.reinstalled.push_back(plan.mods[i].name);
  }
  report.uninstalled = plan.removed;
}

// The write's outcome in the report's terms.
void take_write(WriteReport& write, SyncReport& report) {
  report.recovered.insert(report.recovered.end(), write.recovered.begin(), write.recovered.end());
  report.refused = write.refused;
  report.refusal = write.refusal;
  for (const ModReport& m : write.check.mods)
    for (const std::string& f : m.failures) report.failures.push_back({m.name, f});
  if (write.refused) {
    report.conflicts = write.check.conflicts;
    report.check_text = write.check.text();
  } else {
    report.overrides = write.check.conflicts;
  }
  report.notes = std::move(write.notes);
}

// Under the folder's lock: the plan made again from the state as it is then, and carried out.
absl::Status sync_locked(const std::string& dir, const std::vector<ModIdentity>& ids, const ModOptions& options,
                         const ProgressFn& progress, SyncReport& report) {
  std::vector<std::string> names;
  for (const ModIdentity& m : ids) names.push_back(m.name);
  WriteReport write;
  auto game = open_for_change(dir, write);
  if (!game.ok()) return game.status();
  auto txn = folder::FolderTransaction::begin(dir, game->take_lock(), "mod sync " + absl::StrJoin(names, " "));
  if (!txn.ok()) return txn.status();
  auto state = load_state(dir);
  if (!state.ok()) return state.status();
  const SyncPlan plan = plan_sync(dir, *state, ids);
  if (plan.nothing_to_do()) {
    // Only the archives' stamps differ: their bytes are anvilrt's (a copy, a touch), or something else
    // changed them, which is refused as install and uninstall refuse it.
    if (auto s = refuse_if_changed(dir, *state, "changed"); !s.ok()) return s;
    const std::string text = state_text(*state);
    if (auto s = txn->stage(state_relative(), {reinterpret_cast<const u8*>(text.data()), text.size()}); !s.ok())
      return s;
    report.nothing_to_do = true;
    report.recovered.insert(report.recovered.end(), write.recovered.begin(), write.recovered.end());
    return txn->commit();
  }
  auto order = load_order_of(dir, *state, plan, options);
  if (!order.ok()) return order.status();
  if (auto s = write_load_order(dir, *txn, *state, *order, write, progress); !s.ok()) return s;
  describe_plan(plan, report);
  take_write(write, report);
  return absl::OkStatus();
}

}  // namespace

absl::StatusOr<SyncReport> sync_mods(const std::string& dir, const std::vector<std::string>& mod_paths,
                                     const ModOptions& options, const ProgressFn& progress) {
  if (auto s = folder::check_game_folder(dir); !s.ok()) return s;
  SyncReport report;
  report.dir = dir;
  std::vector<ModIdentity> ids;
  std::set<std::string> names;
  for (const std::string& path : mod_paths) {
    auto id = identify_mod(path);
    if (!id.ok()) return id.status();
    if (!names.insert(id->name).second)
      return absl::InvalidArgumentError(
          absl::StrFormat("%s: names the mod '%s', which an earlier mod given names too", path, id->name));
    report.order.push_back(id->name);
    ids.push_back(std::move(*id));
  }
  // A first look without the lock, reading the state and no archive: a deploy that changes nothing costs
  // what reading the state costs.
  auto opened = folder::open_game_folder(dir);  // the one door: an interrupted transaction finished first
  if (!opened.ok()) return opened.status();
  if (!opened->recovered.empty()) report.recovered.push_back(opened->recovered);
  auto state = load_state(dir);
  if (!state.ok()) return state.status();
  if (plan_sync(dir, *state, ids).nothing_to_do() && stamps_as_left(dir, *state)) {
    report.nothing_to_do = true;
    return report;
  }
  if (auto s = sync_locked(dir, ids, options, progress, report); !s.ok()) return s;
  return report;
}

}  // namespace anvil::mods
