#include "pipeline/mods/mod_identity.hpp"

#include <span>
#include <vector>

#include "pipeline/mods/mod_check.hpp"
#include "pipeline/mods/mod_package.hpp"
#include "pipeline/mods/sha256.hpp"

namespace anvil::mods {

std::string document_digest(std::string_view text) {
  const std::vector<std::span<const u8>> pieces{{reinterpret_cast<const u8*>(text.data()), text.size()}};
  return sha256_hex(pieces);
}

absl::StatusOr<ModIdentity> identify_mod(const std::string& path) {
  // A package's files are read (not turned into changes, which needs the folder): its name and digest.
  if (is_mod_package(path)) {
    auto package = read_mod_package(path);
    if (!package.ok()) return package.status();
    return ModIdentity{path, package->info.name, package->digest};
  }
  // A document is small: reading it whole is what tells its name (a patch file's is its file name, but a
  // mod object names itself) and its digest.
  auto mod = load_mod(path);
  if (!mod.ok()) return mod.status();
  return ModIdentity{path, mod->doc.name, mod->digest};
}

}  // namespace anvil::mods
