#include "pipeline/mods/kept_data.hpp"

#include <absl/strings/str_format.h>

#include <set>
#include <span>

#include "pipeline/mods/mod_state.hpp"
#include "pipeline/mods/sha256.hpp"
#include "platform/paths.hpp"
#include "reader/input_file.hpp"

namespace anvil::mods {

absl::StatusOr<LoadedMod> load_installed_mod(const std::string& dir, const std::string& name) {
  auto mod = load_mod(in_folder(dir, document_relative(name)));
  if (!mod.ok()) return mod.status();
  mod->doc.name = name;
  for (const auto& [key, hash] : mod->doc.replaces) {
    const std::string path = in_folder(dir, kept_data_relative(hash));
    auto file = InputFile::open(path);
    if (!file.ok())
      return absl::DataLossError(absl::StrFormat("%s: the data file %s that mod %s replaces is not kept: %s", path, key,
                                                 name, file.status().message()));
    const std::span<const u8> bytes = file->bytes();
    if (sha256_hex(std::vector<std::span<const u8>>{bytes}) != hash)
      return absl::DataLossError(absl::StrFormat(
          "%s: damaged: its bytes are not those mod %s replaces %s with (sha256 %s)", path, name, key, hash));
    mod->replacements[key].assign(bytes.begin(), bytes.end());
  }
  return mod;
}

absl::Status stage_kept_data(folder::FolderTransaction& txn, const std::string& dir, const std::vector<LoadedMod>& mods,
                             const std::vector<bool>* only) {
  std::set<std::string> staged;
  for (std::size_t i = 0; i < mods.size(); ++i) {
    if (only && !(*only)[i]) continue;
    for (const auto& [key, hash] : mods[i].doc.replaces) {
      if (!staged.insert(hash).second) continue;
      std::error_code ec;
      if (std::filesystem::exists(platform::path_of(in_folder(dir, kept_data_relative(hash))), ec)) continue;
      if (auto s = txn.stage(kept_data_relative(hash), mods[i].replacements.at(key)); !s.ok()) return s;
    }
  }
  return absl::OkStatus();
}

absl::Status stage_unkept_data(folder::FolderTransaction& txn, const std::vector<LoadedMod>& removed,
                               const std::vector<LoadedMod>& staying) {
  std::set<std::string> still;
  for (const LoadedMod& m : staying)
    for (const auto& [key, hash] : m.doc.replaces) still.insert(hash);
  std::set<std::string> done;
  for (const LoadedMod& m : removed)
    for (const auto& [key, hash] : m.doc.replaces)
      if (!still.count(hash) && done.insert(hash).second)
        if (auto s = txn.stage_removal(kept_data_relative(hash)); !s.ok()) return s;
  return absl::OkStatus();
}

absl::Status check_not_kept_document(const LoadedMod& mod) {
  if (mod.doc.replaces.empty() || !mod.replacements.empty()) return absl::OkStatus();
  return absl::InvalidArgumentError(absl::StrFormat(
      "%s: member 'replaces/%s': names a data file kept beside an installed mod; give the mod package itself", mod.path,
      mod.doc.replaces.begin()->first));
}

}  // namespace anvil::mods
