#include "pipeline/mods/given_mods.hpp"

#include <absl/strings/str_format.h>

#include <optional>
#include <utility>

#include "pipeline/mods/kept_data.hpp"
#include "pipeline/mods/original_folder.hpp"
#include "pipeline/mods/package_mod.hpp"

namespace anvil::mods {

absl::StatusOr<std::vector<GivenMod>> read_given_mods(const std::vector<std::string>& paths, bool digests) {
  std::vector<GivenMod> given;
  for (const std::string& path : paths) {
    if (is_mod_package(path)) {
      auto package = read_mod_package(path, {}, digests);
      if (!package.ok()) return package.status();
      given.emplace_back(std::move(*package));
    } else {
      auto mod = load_mod(path);
      if (!mod.ok()) return mod.status();
      if (auto s = check_not_kept_document(*mod); !s.ok()) return s;
      given.emplace_back(std::move(*mod));
    }
  }
  return given;
}

absl::StatusOr<std::vector<LoadedMod>> resolve_given_mods(std::vector<GivenMod> given, const std::string* dir,
                                                          const ModState* state, folder::FolderLevels* current,
                                                          bool allow_new) {
  std::vector<LoadedMod> mods;
  // Opened on the first package, kept for the next ones; the levels go before the work folder they read.
  std::optional<OriginalFolder> original;
  std::optional<folder::FolderLevels> originals;
  for (GivenMod& g : given) {
    if (LoadedMod* mod = std::get_if<LoadedMod>(&g)) {
      mods.push_back(std::move(*mod));
      continue;
    }
    const ModPackage& package = std::get<ModPackage>(g);
    if (!dir || !state)
      return absl::InvalidArgumentError(absl::StrFormat(
          "%s: a mod package is turned into changes against a game folder: name one (--onto DIR)", package.path));
    folder::FolderLevels* compare_with = originals ? &*originals : nullptr;
    if (!compare_with && current && state->archives.empty()) compare_with = current;
    if (!compare_with) {
      auto opened = open_original_folder(*dir, *state);
      if (!opened.ok()) return opened.status();
      original.emplace(std::move(*opened));
      originals.emplace(std::move(original->folder),
                        folder::FolderOptions{.game = {},
                                              .layout = {},
                                              .save_key_cache = false,
                                              .check_alone = current != nullptr && current->options().check_alone});
      compare_with = &*originals;
    }
    auto mod = package_mod(package, *compare_with, allow_new);
    if (!mod.ok()) return mod.status();
    mods.push_back(std::move(*mod));
  }
  return mods;
}

absl::StatusOr<std::vector<LoadedMod>> load_given_mods(const std::vector<std::string>& paths, const std::string* dir,
                                                       const ModState* state, bool allow_new) {
  auto given = read_given_mods(paths);
  if (!given.ok()) return given.status();
  return resolve_given_mods(std::move(*given), dir, state, nullptr, allow_new);
}

}  // namespace anvil::mods
