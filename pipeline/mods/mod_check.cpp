#include "pipeline/mods/mod_check.hpp"

#include <absl/strings/match.h>
#include <absl/strings/str_format.h>
#include <absl/strings/str_join.h>

#include <algorithm>
#include <filesystem>
#include <map>
#include <set>
#include <utility>

#include "patch/archive_patch.hpp"
#include "pipeline/mods/given_mods.hpp"
#include "pipeline/mods/mod_identity.hpp"
#include "pipeline/mods/sha256.hpp"
#include "pipeline/mods/shipped_data_file.hpp"
#include "pipeline/mods/undo_data.hpp"
#include "platform/paths.hpp"
#include "reader/input_file.hpp"

namespace anvil::mods {
namespace {

// What an operation's error names it by: its path, or a bulk operation's name ("swap_material").
std::string op_path(const rapidjson::Value& op) {
  if (!op.IsObject()) return {};
  for (const char* member : {"path", "op"}) {
    auto it = op.FindMember(member);
    if (it != op.MemberEnd() && it->value.IsString()) return it->value.GetString();
  }
  return {};
}

// Made-for hashes that differ from the folder's original archives.
std::vector<std::string> made_for_warnings(const std::string& dir, const patch::ModDocument& mod,
                                           folder::FolderLevels& folder) {
  std::vector<std::string> out;
  for (const auto& [name, hash] : mod.made_for) {
    const std::optional<std::size_t> a = folder.folder().find(name);
    if (!a) {
      out.push_back(absl::StrFormat("made for %s, which the game folder has not", name));
      continue;
    }
    if (auto levels = folder.levels(*a); !levels.ok()) {
      out.push_back(std::string(levels.status().message()));
      continue;
    }
    // The folder's own file may hold mods' changes; a copy restored to its original bytes does not.
    std::optional<ArchiveUndo> undo;
    const std::string undo_path = in_folder(dir, undo_relative(name));
    std::error_code ec;
    if (!folder.folder().read_from.count(name) && std::filesystem::exists(platform::path_of(undo_path), ec))
      if (auto u = read_undo_file(undo_path); u.ok()) undo = std::move(*u);
    const std::string original = original_sha256(folder.input(*a).bytes(), undo ? &*undo : nullptr);
    if (original != hash)
      out.push_back(
          absl::StrFormat("made for %s with sha256 %s; the folder's (before any mod) is %s", name, hash, original));
  }
  return out;
}

// Every change the folder patch recorded, in the order of the operations.
std::vector<patch::Change> folder_changes(const folder::FolderPatchOutcome& outcome) {
  std::vector<patch::Change> all;
  for (const folder::ArchivePatch& a : outcome.archives) {
    all.insert(all.end(), a.outcome.document_changes.begin(), a.outcome.document_changes.end());
    for (const patch::DataFilePatch& d : a.outcome.datafiles)
      all.insert(all.end(), d.result.changes.begin(), d.result.changes.end());
  }
  std::stable_sort(all.begin(), all.end(),
                   [](const patch::Change& x, const patch::Change& y) { return x.op_index < y.op_index; });
  return all;
}

// A mod made for another game than the folder's (its first archive's dialect) is refused, naming both: its
// operations would otherwise fail one by one, or worse, apply to fields that mean something else.
absl::Status check_games(const std::string& dir, folder::FolderLevels& folder, const std::vector<LoadedMod>& mods) {
  for (const LoadedMod& m : mods) {
    if (!m.doc.game) continue;
    auto levels = folder.levels(0);
    if (!levels.ok()) return absl::OkStatus();  // said where an operation needs that archive
    const std::string folder_game(game_name((*levels)->game()));
    if (*m.doc.game != folder_game)
      return absl::InvalidArgumentError(absl::StrFormat("%s: made for the game %s; the game folder %s holds %s (%s)",
                                                        m.path, *m.doc.game, dir, folder_game, folder.name(0)));
  }
  return absl::OkStatus();
}

// "A.forge/NAME" -> the archive's index in the folder and the data file's in its set; an error naming the mod.
absl::StatusOr<std::pair<std::size_t, std::size_t>> replaced_data_file(folder::FolderLevels& folder,
                                                                       const LoadedMod& mod, const std::string& key) {
  const auto [archive, name] = patch::replaced_data_file_parts(key);
  auto missing = [&] {
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: member 'replaces/%s': the game folder has no such data file", mod.path, key));
  };
  const std::optional<std::size_t> a = folder.folder().find(archive);
  if (!a) return missing();
  auto set = folder.levels(*a);
  if (!set.ok()) return set.status();
  const std::optional<std::size_t> i = (*set)->find(name);
  if (!i) return missing();
  return std::pair{*a, *i};
}

// The data files the mods replace whole, in load order (a later mod's replacement wins), each with the objects
// the folder holds there now, so that only bytes no object holds are replaced (or whole, where its objects
// lie elsewhere than the folder's). Each archive touched, in `replaced`.
absl::Status apply_replacements(folder::FolderLevels& folder, const std::vector<LoadedMod>& mods,
                                std::map<std::size_t, std::size_t>& replaced) {
  for (const LoadedMod& m : mods)
    for (const auto& [key, bytes] : m.replacements) {
      auto at = replaced_data_file(folder, m, key);
      if (!at.ok()) return at.status();
      forge::ArchiveLevels& set = **folder.levels(at->first);
      auto now = set.level(at->second);
      if (!now.ok()) return now.status();
      std::optional<std::vector<u8>> merged = with_objects_of(**now, bytes);
      set.replace(at->second, merged ? std::move(*merged) : bytes);
      ++replaced[at->first];
    }
  return absl::OkStatus();
}

// The data files the mods add (with --allow-new), in load order, for each archive: added to the archive where
// it has none of that name; where it has (an installed mod added it, or an earlier mod of this order), that
// data file replaced whole by the later mod's bytes, counted in `replaced`.
using Additions = std::map<std::size_t, std::vector<forge::DataFileAddition>>;
absl::Status apply_additions(folder::FolderLevels& folder, const std::vector<LoadedMod>& mods,
                             std::map<std::size_t, std::size_t>& replaced, Additions& added) {
  for (const LoadedMod& m : mods)
    for (const auto& [key, ref] : m.doc.adds) {
      const auto [archive, name] = patch::replaced_data_file_parts(key);
      const std::optional<std::size_t> a = folder.folder().find(archive);
      if (!a)
        return absl::InvalidArgumentError(
            absl::StrFormat("%s: member 'adds/%s': the game folder has no archive %s", m.path, key, archive));
      auto set = folder.levels(*a);
      if (!set.ok()) return set.status();
      const std::vector<u8>& bytes = m.additions.at(key);
      if (const std::optional<std::size_t> i = (*set)->find(name)) {
        (*set)->replace(*i, bytes);
        ++replaced[*a];
        continue;
      }
      std::vector<forge::DataFileAddition>& list = added[*a];
      auto same =
          std::find_if(list.begin(), list.end(), [&added_name = name](const auto& d) { return d.name == added_name; });
      forge::DataFileAddition addition{name, ref.file_id, ref.file_type, bytes, false};
      if (same != list.end())
        *same = std::move(addition);
      else
        list.push_back(std::move(addition));
    }
  return absl::OkStatus();
}

// Every archive a replacement touched is in the outcome (ascending), to be written even where no operation
// reached it.
void add_replaced_archives(const std::map<std::size_t, std::size_t>& replaced, Additions& added,
                           folder::FolderLevels& folder, folder::FolderPatchOutcome& outcome) {
  std::set<std::size_t> touched;
  for (const auto& [a, count] : replaced) touched.insert(a);
  for (const auto& [a, list] : added) touched.insert(a);
  for (const std::size_t a : touched) {
    auto it = std::find_if(outcome.archives.begin(), outcome.archives.end(),
                           [&](const folder::ArchivePatch& p) { return p.archive == a; });
    if (it == outcome.archives.end()) {
      folder::ArchivePatch added;
      added.archive = a;
      it = outcome.archives.insert(
          std::upper_bound(outcome.archives.begin(), outcome.archives.end(), a,
                           [](std::size_t x, const folder::ArchivePatch& p) { return x < p.archive; }),
          std::move(added));
    }
    it->replaced_datafiles = (*folder.levels(a))->replaced().size();
    if (auto list = added.find(a); list != added.end()) it->added = std::move(list->second);
  }
}

// The writes of a mod's replacements, before its operations': the data file's bytes outside every object, a
// field of its own ("…/datafiles/NAME/outside", the sha256 of the bytes): two mods that replace one data file
// with different bytes conflict there.
std::vector<patch::Change> replacement_changes(const LoadedMod& mod) {
  std::vector<patch::Change> out;
  for (const auto& [key, hash] : mod.doc.replaces) {
    const auto [archive, name] = patch::replaced_data_file_parts(key);
    patch::Change c;
    c.op = "replace";
    c.pointer = folder::archive_pointer(archive) + patch::datafile_pointer(name) + "/outside";
    c.new_value = "\"sha256:" + hash + "\"";
    out.push_back(std::move(c));
  }
  // An added data file is a field of its own too ("…/datafiles/NAME/added"): two mods that add one name with
  // different bytes conflict there.
  for (const auto& [key, added] : mod.doc.adds) {
    const auto [archive, name] = patch::replaced_data_file_parts(key);
    patch::Change c;
    c.op = "add";
    c.pointer = folder::archive_pointer(archive) + patch::datafile_pointer(name) + "/added";
    c.new_value = "\"sha256:" + added.sha256 + "\"";
    out.push_back(std::move(c));
  }
  return out;
}

}  // namespace

absl::StatusOr<LoadedMod> load_mod(const std::string& path) {
  // Through the platform's input (a UTF-8 path on every system), so that a refusal says the system's
  // reason: "mods/x.json: cannot read the mod: No such file or directory".
  auto file = InputFile::open(path);
  if (!file.ok()) {
    std::string reason(file.status().message());  // "PATH: the system's words"
    if (absl::StartsWith(reason, path + ": ")) reason.erase(0, path.size() + 2);
    return absl::InvalidArgumentError(absl::StrFormat("%s: cannot read the mod: %s", path, reason));
  }
  LoadedMod mod;
  mod.path = path;
  mod.text.assign(reinterpret_cast<const char*>(file->bytes().data()), file->bytes().size());
  auto doc = patch::parse_mod(path, mod.text);
  if (!doc.ok()) return doc.status();
  mod.doc = std::move(*doc);
  mod.digest = document_digest(mod.text);
  return mod;
}

rapidjson::Document concatenated(const std::vector<const patch::ModDocument*>& mods,
                                 std::vector<std::size_t>* first_op) {
  rapidjson::Document out(rapidjson::kArrayType);
  for (const patch::ModDocument* m : mods) {
    if (first_op) first_op->push_back(out.Size());
    for (const rapidjson::Value& op : m->patch.GetArray()) {
      rapidjson::Value copy;
      copy.CopyFrom(op, out.GetAllocator());
      out.PushBack(copy, out.GetAllocator());
    }
  }
  return out;
}

std::string original_sha256(std::span<const u8> bytes, const ArchiveUndo* undo) {
  if (!undo) return sha256_hex(std::vector<std::span<const u8>>{bytes});
  std::vector<std::span<const u8>> pieces;
  u64 at = 0;
  for (const UndoRange& r : undo->ranges) {
    pieces.push_back(bytes.subspan(at, r.offset - at));
    pieces.push_back(r.original);
    at = r.offset + r.original.size();
  }
  if (at < undo->original_size) pieces.push_back(bytes.subspan(at, undo->original_size - at));
  return sha256_hex(pieces);
}

absl::StatusOr<Analysis> analyse(const std::string& dir, const ModState& state, folder::FolderLevels& folder,
                                 const std::vector<LoadedMod>& mods) {
  Analysis a;
  a.report.dir = dir;
  if (auto s = check_games(dir, folder, mods); !s.ok()) return s;
  ModState looked_at = state;  // the stamps it refreshes are not saved by a check
  a.report.changed_archives = changed_behind_our_back(dir, looked_at, Scrutiny::stamp);
  for (const InstalledMod& m : state.mods) a.report.mods.push_back({m.name, true, m.effect, {}, {}, {}, {}, {}});
  std::vector<const patch::ModDocument*> docs;
  for (const LoadedMod& m : mods) docs.push_back(&m.doc);
  std::vector<std::size_t> first_op;
  const rapidjson::Document all = concatenated(docs, &first_op);
  std::vector<std::size_t> owner(all.Size());
  for (std::size_t m = 0; m < mods.size(); ++m)
    for (std::size_t g = first_op[m]; g < (m + 1 < mods.size() ? first_op[m + 1] : all.Size()); ++g) owner[g] = m;
  std::vector<ModReport> given(mods.size());
  for (std::size_t m = 0; m < mods.size(); ++m) {
    given[m].name = mods[m].doc.name;
    given[m].warnings = made_for_warnings(dir, mods[m].doc, folder);
  }
  std::map<std::size_t, std::size_t> replaced;
  if (auto s = apply_replacements(folder, mods, replaced); !s.ok()) return s;
  Additions added;
  if (auto s = apply_additions(folder, mods, replaced, added); !s.ok()) return s;
  // Each failing operation is reported, then left out, and the rest applied again.
  std::vector<bool> active(all.Size(), true);
  const patch::PatchOptions options{.record_changes = true};
  for (;;) {
    rapidjson::Document patch(rapidjson::kArrayType);
    std::vector<std::size_t> global;
    for (std::size_t g = 0; g < all.Size(); ++g) {
      if (!active[g]) continue;
      rapidjson::Value op;
      op.CopyFrom(all[static_cast<rapidjson::SizeType>(g)], patch.GetAllocator());
      patch.PushBack(op, patch.GetAllocator());
      global.push_back(g);
    }
    folder::FolderPatchOutcome outcome = folder::apply_folder_patch(folder, patch, options);
    if (!outcome.error) {
      add_replaced_archives(replaced, added, folder, outcome);
      std::vector<std::vector<patch::Change>> per_mod(mods.size());
      for (std::size_t m = 0; m < mods.size(); ++m) per_mod[m] = replacement_changes(mods[m]);
      for (const patch::Change& c : folder_changes(outcome)) {
        const std::size_t g = global.at(c.op_index);
        per_mod[owner[g]].push_back(c);
      }
      for (std::size_t m = 0; m < mods.size(); ++m) given[m].effect = effect_of(per_mod[m]);
      if (std::all_of(given.begin(), given.end(), [](const ModReport& r) { return r.failures.empty(); }))
        a.outcome = std::move(outcome);
      break;
    }
    patch::PatchError e = *outcome.error;
    if (e.op_index == patch::PatchError::kWholePatch) return absl::InvalidArgumentError(e.message());
    // The error in the mod's own terms: its own operation's index and path.
    const std::size_t g = global.at(e.op_index);
    const LoadedMod& mod = mods[owner[g]];
    e.op_index = g - first_op[owner[g]];
    e.pointer = op_path(all[static_cast<rapidjson::SizeType>(g)]);
    if (e.input_fault || e.malformed) return absl::InvalidArgumentError(e.line(mod.path, ""));
    given[owner[g]].failures.push_back(e.message());
    active[g] = false;
  }
  std::vector<NamedEffect> order;
  for (ModReport& r : a.report.mods) order.push_back({r.name, &r.effect});
  for (ModReport& r : given) order.push_back({r.name, &r.effect});
  a.report.conflicts = find_conflicts(order, state.mods.size());
  for (ModReport& r : given) a.report.mods.push_back(std::move(r));
  return a;
}

absl::StatusOr<CheckReport> check_mods(const std::string& dir, const std::vector<std::string>& mod_paths,
                                       const ModOptions& options) {
  auto given = read_given_mods(mod_paths, false);  // a check records no mod: no digest
  if (!given.ok()) return given.status();
  // Opened (an interrupted transaction finished) before the state is read: the state is the folder's.
  auto game = folder::open_game_folder(dir);
  if (!game.ok()) return game.status();
  std::string recovered = game->recovered;
  auto state = load_state(dir);
  if (!state.ok()) return state.status();
  // A check writes nothing: a data file it reads is checked against its own blocks' rule, the rest of its
  // archive not read for the archive's (docs/mods.md).
  folder::FolderLevels levels(std::move(*game),
                              {.game = {}, .layout = {}, .save_key_cache = true, .check_alone = true});
  auto loaded = resolve_given_mods(std::move(*given), &dir, &*state, &levels, options.allow_new);
  if (!loaded.ok()) return loaded.status();
  const std::vector<LoadedMod>& mods = *loaded;
  auto analysis = analyse(dir, *state, levels, mods);
  if (!analysis.ok()) return analysis.status();
  analysis->report.recovered = std::move(recovered);
  return std::move(analysis->report);
}

}  // namespace anvil::mods
