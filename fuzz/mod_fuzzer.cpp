// Harness 6, mod: an arbitrary mod document (docs/mods.md) read as `anvilrt mod check` reads it, then
// checked against a generated game folder of two archives as `check` does, nothing written. Invariants: a
// refused document is one line naming the file; an accepted one writes back (mod_text) to the same mod;
// the check of one mod reports no conflict and leaves the folder's archives as they were.
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "gen/forge.hpp"
#include "pipeline/mods/mod_check.hpp"

namespace {

std::string folder;
std::vector<std::vector<anvil::u8>> archives;

[[noreturn]] void broken(const std::string& what) {
  std::fprintf(stderr, "mod invariant broken: %s\n", what.c_str());
  std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***) {
  // One folder for every run of the harness, not one per process: a fuzzer's processes end by a signal
  // (afl-fuzz kills its fork server), so a folder of their own would be left behind by each. Its archives
  // are the same bytes every time (fixed seeds), and each is written whole and renamed into place, so
  // instances that start together read complete archives whichever wrote them.
  folder = (std::filesystem::temp_directory_path() / "anvilrt-mod-fuzz").string();
  std::filesystem::create_directories(folder);
  for (anvil::u64 seed : {1, 2}) {
    anvil::gen::ForgeOptions options;
    options.datafiles = 3;
    options.visuals = 2;
    options.seed = seed;
    const std::string path = folder + "/a" + std::to_string(seed) + ".forge";
    if (!anvil::gen::generate_forge_file(options, path).ok()) broken("cannot generate " + path);
    archives.push_back(anvil::gen::generate_forge(options));
  }
  return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const anvil::u8* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto mod = anvil::patch::parse_mod("fuzz.json", text);
  if (!mod.ok()) {
    const std::string message(mod.status().message());
    if (message.rfind("fuzz.json: ", 0) != 0 || message.find('\n') != std::string::npos)
      broken("an error that is not one line naming the file: " + message);
    return 0;
  }
  auto again = anvil::patch::parse_mod("again.json", anvil::patch::mod_text(*mod));
  if (!again.ok()) broken("mod_text does not read back: " + std::string(again.status().message()));
  if (again->name != mod->name || !(again->patch == mod->patch) || again->made_for != mod->made_for)
    broken("mod_text does not write the same mod");
  std::vector<anvil::mods::LoadedMod> loaded(1);
  loaded[0].path = "fuzz.json";
  loaded[0].text = std::string(text);
  loaded[0].doc = std::move(*mod);
  auto game = anvil::folder::open_game_folder(folder);
  if (!game.ok()) broken(std::string(game.status().message()));
  anvil::folder::FolderLevels levels(std::move(*game));
  auto analysis = anvil::mods::analyse(folder, {}, levels, loaded);
  if (analysis.ok() && !analysis->report.conflicts.empty()) broken("one mod conflicts with itself");
  for (std::size_t i = 0; i < archives.size(); ++i) {
    auto input = anvil::InputFile::open(folder + "/a" + std::to_string(i + 1) + ".forge");
    if (!input.ok() ||
        !std::equal(input->bytes().begin(), input->bytes().end(), archives[i].begin(), archives[i].end()))
      broken("check changed an archive");
  }
  return 0;
}
