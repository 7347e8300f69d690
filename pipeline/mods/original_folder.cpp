#include "pipeline/mods/original_folder.hpp"

#include <absl/strings/str_format.h>

#include <filesystem>
#include <system_error>
#include <utility>

#include "pipeline/mods/undo_data.hpp"
#include "platform/paths.hpp"
#include "platform/random.hpp"

namespace anvil::mods {

WorkFolder::~WorkFolder() {
  std::error_code ec;
  std::filesystem::remove_all(platform::path_of(path_), ec);
}

absl::StatusOr<OriginalFolder> open_original_folder(const std::string& dir, const ModState& state,
                                                    const std::function<void(u64)>& restored) {
  OriginalFolder out;
  auto game = folder::open_game_folder(dir);
  if (!game.ok()) return game.status();
  out.folder = std::move(*game);
  if (state.archives.empty()) return out;
  // A name of its own: `mod check` restores without the folder's lock, beside a command that holds it.
  auto suffix = platform::secure_random_bytes(6);
  if (!suffix.ok()) return suffix.status();
  std::string name = ".anvilrt/mods/work-";
  for (u8 b : *suffix) absl::StrAppendFormat(&name, "%02x", b);
  out.work = std::make_unique<WorkFolder>(in_folder(dir, name));
  std::error_code ec;
  std::filesystem::create_directories(platform::path_of(out.work->path()), ec);
  if (ec) return absl::InternalError(absl::StrFormat("%s: %s", out.work->path(), ec.message()));
  for (const auto& [name, record] : state.archives) {
    auto undo = read_undo_file(in_folder(dir, undo_relative(name)));
    if (!undo.ok()) return undo.status();
    const std::string copy = platform::utf8_of(platform::path_of(out.work->path()) / platform::path_of(name));
    if (auto s = restore_original(in_folder(dir, name), *undo, copy); !s.ok()) return s;
    out.restored[name] = copy;
    if (restored) restored(record.original_size);
  }
  out.folder.read_from = out.restored;
  return out;
}

}  // namespace anvil::mods
