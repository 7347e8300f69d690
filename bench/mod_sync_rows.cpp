// The issue-52 row (bench/forge_rows.hpp mod_sync_rows): `anvilrt mod sync` with nothing to do, on the game
// folder of the mod rows, with 1 and with 20 mods installed.
#include <absl/strings/str_format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "bench/forge_rows.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/input_file.hpp"
#include "reader/level.hpp"

namespace anvil::bench {
namespace {

namespace fs = std::filesystem;

constexpr std::size_t kSyncDataFile = 10;  // the data file whose objects the mods change, in each archive
constexpr int kManyMods = 20;

// Up to `count` object keys of data file kSyncDataFile of `path`.
std::vector<std::string> keys_of_data_file(const std::string& path, std::size_t count) {
  std::vector<std::string> keys;
  auto in = InputFile::open(path);
  if (!in.ok()) return keys;
  auto archive = forge::read_archive(in->bytes());
  if (!archive.ok() || archive->files.size() <= kSyncDataFile) return keys;
  forge::ArchiveLevels levels(in->bytes(), *archive, Game::ac2);
  auto level = levels.level(kSyncDataFile);
  if (!level.ok()) return keys;
  for (const Piece& p : (*level)->pieces)
    if (p.is_object() && keys.size() < count) keys.push_back(object_key(p, Game::ac2));
  return keys;
}

}  // namespace

void mod_sync_rows(const ForgeRowOptions& o, const std::string& folder) {
  const std::string work = o.dir + "/mods-sync-work", mods = o.dir + "/mods-sync-mods";
  std::error_code ec;
  fs::remove_all(work, ec);
  fs::create_directories(work);
  fs::create_directories(mods);
  std::vector<std::string> archives;
  for (const auto& e : fs::directory_iterator(folder))
    if (e.path().extension() == ".forge") {
      archives.push_back(e.path().filename().string());
      fs::copy_file(e.path(), fs::path(work) / e.path().filename(), ec);
    }
  std::sort(archives.begin(), archives.end());
  // kManyMods mods, each one object's field, spread over the archives.
  std::vector<std::string> mod_files;
  const std::size_t per_archive = (kManyMods + archives.size() - 1) / std::max<std::size_t>(archives.size(), 1);
  for (const std::string& a : archives)
    for (const std::string& key : keys_of_data_file(folder + "/" + a, per_archive)) {
      if (mod_files.size() == static_cast<std::size_t>(kManyMods)) break;
      const std::string mod = absl::StrFormat("%s/sync%02d.json", mods, mod_files.size() + 1);
      std::ofstream(mod, std::ios::binary) << absl::StrFormat(
          "[{\"op\":\"replace\",\"path\":\"/archives/%s/datafiles/DataFile_%03d/objects/%s/managed\",\"value\":1}]", a,
          kSyncDataFile, key);
      mod_files.push_back(mod);
    }
  if (mod_files.size() != static_cast<std::size_t>(kManyMods)) {
    std::fprintf(stderr, "anvilrt_bench: the mod sync rows' mods could not be made\n");
    return;
  }
  std::vector<std::string> one{o.anvilrt, "mod", "sync", work, mod_files[0], "-q"};
  std::vector<std::string> many{o.anvilrt, "mod", "sync", work};
  many.insert(many.end(), mod_files.begin(), mod_files.end());
  many.push_back("-q");
  double with_one = -1, with_many = -1;
  // The first run of each installs the mods; those after it have nothing to do.
  if (run_cli(one).wall >= 0) with_one = fastest(one, o.runs).wall;
  if (run_cli(many).wall >= 0) with_many = fastest(many, o.runs).wall;
  if (with_one < 0 || with_many < 0) {
    std::fprintf(stderr, "anvilrt_bench: mod sync failed\n");
  } else {
    std::printf(
        "mod sync, nothing to do: %.3f s with 1 mod installed, %.3f s with %d (target <= 0.1 s at any number)\n",
        with_one, with_many, kManyMods);
  }
  fs::remove_all(work, ec);
  fs::remove_all(mods, ec);
}

}  // namespace anvil::bench
