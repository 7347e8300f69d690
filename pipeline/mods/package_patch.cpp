#include "pipeline/mods/package_patch.hpp"

#include <absl/strings/str_format.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <utility>
#include <vector>

#include "pipeline/game_folder.hpp"
#include "pipeline/mods/given_mods.hpp"
#include "pipeline/mods/mod_state.hpp"

namespace anvil::mods {

absl::StatusOr<std::string> package_patch_text(const std::string& path, const std::string& dir) {
  auto given = read_given_mods({path});
  if (!given.ok()) return given.status();
  // Opened through the one door (an interrupted transaction finished first), so that the state is the folder's.
  auto game = folder::open_game_folder(dir);
  if (!game.ok()) return game.status();
  auto state = load_state(dir);
  if (!state.ok()) return state.status();
  folder::FolderLevels levels(std::move(*game));
  auto mods = resolve_given_mods(std::move(*given), &dir, &*state, &levels);
  if (!mods.ok()) return mods.status();
  const LoadedMod& mod = mods->front();
  if (!mod.doc.replaces.empty())
    return absl::InvalidArgumentError(
        absl::StrFormat("%s: changes %s outside its objects, which a patch cannot carry; install it with anvilrt mod "
                        "install %s %s",
                        path, mod.doc.replaces.begin()->first, dir, path));
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> writer(buffer);
  mod.doc.patch.Accept(writer);
  return std::string(buffer.GetString(), buffer.GetSize());
}

}  // namespace anvil::mods
