#include "pipeline/mods/kept_data.hpp"

#include <absl/strings/str_format.h>

#include <set>
#include <span>

#include "pipeline/mods/mod_state.hpp"
#include "pipeline/mods/sha256.hpp"
#include "platform/paths.hpp"
#include "reader/input_file.hpp"

namespace anvil::mods {

namespace {

// The data file kept by the name `hash` (DIR/.anvilrt/mods/data/<hash>.data), checked against its name.
absl::StatusOr<std::vector<u8>> kept_bytes(const std::string& dir, const std::string& mod, const std::string& key,
                                           const std::string& hash, const char* what) {
  const std::string path = in_folder(dir, kept_data_relative(hash));
  auto file = InputFile::open(path);
  if (!file.ok())
    return absl::DataLossError(absl::StrFormat("%s: the data file %s that mod %s %s is not kept: %s", path, key, mod,
                                               what, file.status().message()));
  const std::span<const u8> bytes = file->bytes();
  if (sha256_hex(std::vector<std::span<const u8>>{bytes}) != hash)
    return absl::DataLossError(
        absl::StrFormat("%s: damaged: its bytes are not those of the data file %s that mod %s %s (sha256 %s)", path,
                        key, mod, what, hash));
  return std::vector<u8>(bytes.begin(), bytes.end());
}

// The kept data files of a mod's document, as (key, hash, bytes): those it replaces, then those it adds.
struct KeptFile {
  const std::string& key;
  const std::string& hash;
  const std::vector<u8>& bytes;
};
std::vector<KeptFile> kept_files(const LoadedMod& mod) {
  std::vector<KeptFile> out;
  for (const auto& [key, hash] : mod.doc.replaces) out.push_back({key, hash, mod.replacements.at(key)});
  for (const auto& [key, added] : mod.doc.adds) out.push_back({key, added.sha256, mod.additions.at(key)});
  return out;
}

std::vector<std::string> kept_hashes(const LoadedMod& mod) {
  std::vector<std::string> out;
  for (const auto& [key, hash] : mod.doc.replaces) out.push_back(hash);
  for (const auto& [key, added] : mod.doc.adds) out.push_back(added.sha256);
  return out;
}

}  // namespace

absl::StatusOr<LoadedMod> load_installed_mod(const std::string& dir, const std::string& name) {
  auto mod = load_mod(in_folder(dir, document_relative(name)));
  if (!mod.ok()) return mod.status();
  mod->doc.name = name;
  for (const auto& [key, hash] : mod->doc.replaces) {
    auto bytes = kept_bytes(dir, name, key, hash, "replaces");
    if (!bytes.ok()) return bytes.status();
    mod->replacements[key] = std::move(*bytes);
  }
  for (const auto& [key, added] : mod->doc.adds) {
    auto bytes = kept_bytes(dir, name, key, added.sha256, "adds");
    if (!bytes.ok()) return bytes.status();
    mod->additions[key] = std::move(*bytes);
  }
  return mod;
}

absl::Status stage_kept_data(folder::FolderTransaction& txn, const std::string& dir, const std::vector<LoadedMod>& mods,
                             const std::vector<bool>* only) {
  std::set<std::string> staged;
  for (std::size_t i = 0; i < mods.size(); ++i) {
    if (only && !(*only)[i]) continue;
    for (const KeptFile& kept : kept_files(mods[i])) {
      if (!staged.insert(kept.hash).second) continue;
      std::error_code ec;
      if (std::filesystem::exists(platform::path_of(in_folder(dir, kept_data_relative(kept.hash))), ec)) continue;
      if (auto s = txn.stage(kept_data_relative(kept.hash), kept.bytes); !s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

absl::Status stage_unkept_data(folder::FolderTransaction& txn, const std::vector<LoadedMod>& removed,
                               const std::vector<LoadedMod>& staying) {
  std::set<std::string> still;
  for (const LoadedMod& m : staying)
    for (const std::string& hash : kept_hashes(m)) still.insert(hash);
  std::set<std::string> done;
  for (const LoadedMod& m : removed)
    for (const std::string& hash : kept_hashes(m))
      if (!still.count(hash) && done.insert(hash).second)
        if (auto s = txn.stage_removal(kept_data_relative(hash)); !s.ok()) return s;
  return absl::OkStatus();
}

absl::Status check_not_kept_document(const LoadedMod& mod) {
  if (!mod.doc.replaces.empty() && mod.replacements.empty())
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: member 'replaces/%s': names a data file kept beside an installed mod; give the mod package itself",
        mod.path, mod.doc.replaces.begin()->first));
  if (!mod.doc.adds.empty() && mod.additions.empty())
    return absl::InvalidArgumentError(absl::StrFormat(
        "%s: member 'adds/%s': names a data file kept beside an installed mod; give the mod package itself", mod.path,
        mod.doc.adds.begin()->first));
  return absl::OkStatus();
}

}  // namespace anvil::mods
