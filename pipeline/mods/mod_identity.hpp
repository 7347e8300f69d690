// What a mod is, for `anvilrt mod sync` (docs/mods.md): its name and a digest of its files, known without
// reading any archive of the game folder. Two mods of one name and one digest are the same mod: sync leaves
// it installed; another digest under an installed name is a new version of it, installed in its place.
#pragma once

#include <absl/status/statusor.h>

#include <string>
#include <string_view>

namespace anvil::mods {

struct ModIdentity {
  std::string path;    // as given
  std::string name;    // the mod's name (its document's, or a patch file's name without the extension)
  std::string digest;  // lowercase hex
};

// The name and digest of the mod at `path`; an error is one line naming it (as load_mod's).
absl::StatusOr<ModIdentity> identify_mod(const std::string& path);

// The digest of a mod document or patch file: the sha256 of its text, as given.
std::string document_digest(std::string_view text);

}  // namespace anvil::mods
