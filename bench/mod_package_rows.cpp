// The issue-52 rows of mod packages (bench/forge_rows.hpp mod_package_rows), on the game folder of the mod
// rows: installing a package of one whole data file against `put` of that data file into the same archive
// (target <= 1.3 x), and checking two packages of the same data file (each one field changed) against
// `diff` of that data file with the original (target <= 2 x).
#include <absl/strings/str_format.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
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

constexpr std::size_t kShipped = 10;  // the data file the packages ship, of the folder's first archive

// The first two object keys of data file kShipped of `path`, and its name.
std::vector<std::string> two_keys(const std::string& path, std::string& name) {
  std::vector<std::string> keys;
  auto in = InputFile::open(path);
  if (!in.ok()) return keys;
  auto archive = forge::read_archive(in->bytes());
  if (!archive.ok() || archive->files.size() <= kShipped) return keys;
  forge::ArchiveLevels levels(in->bytes(), *archive, Game::ac2);
  name = levels.name(kShipped);
  auto level = levels.level(kShipped);
  if (!level.ok()) return keys;
  for (const Piece& p : (*level)->pieces)
    if (p.is_object() && keys.size() < 2) keys.push_back(object_key(p, Game::ac2));
  return keys;
}

bool ran(const std::vector<std::string>& args, int expected = 0) { return run_cli(args, expected).wall >= 0; }

// A package holding data file `name` of `archive` with one field of `key` changed: `dir`/Extracted/A/NAME.data.
bool make_package(const ForgeRowOptions& o, const std::string& original, const std::string& archive,
                  const std::string& name, const std::string& key, int value, const std::string& dir) {
  const std::string patch = dir + ".json", edited = dir + ".forge";
  std::ofstream(patch, std::ios::binary) << absl::StrFormat(
      "[{\"op\":\"replace\",\"path\":\"/datafiles/%s/objects/%s/managed\",\"value\":%d}]", name, key, value);
  return ran({o.anvilrt, "patch", original + "/" + archive, patch, "-o", edited, "-q"}) &&
         ran({o.anvilrt, "extract", edited, name, "-o", dir + "/Extracted/" + archive, "-q"});
}

void copy_archives(const std::string& from, const std::string& to) {
  std::error_code ec;
  fs::remove_all(to, ec);
  fs::create_directories(to);
  for (const auto& e : fs::directory_iterator(from))
    if (e.path().extension() == ".forge") fs::copy_file(e.path(), fs::path(to) / e.path().filename(), ec);
}

}  // namespace

void mod_package_rows(const ForgeRowOptions& o, const std::string& folder) {
  const std::string root = o.dir + "/mods-package", work = root + "/work";
  std::error_code ec;
  fs::remove_all(root, ec);
  fs::create_directories(root);
  std::vector<std::string> archives;
  for (const auto& e : fs::directory_iterator(folder))
    if (e.path().extension() == ".forge") archives.push_back(e.path().filename().string());
  std::sort(archives.begin(), archives.end());
  std::string name;
  const std::vector<std::string> keys =
      archives.empty() ? std::vector<std::string>{} : two_keys(folder + "/" + archives[0], name);
  const std::string a = archives.empty() ? "" : archives[0], one = root + "/one", two = root + "/two";
  if (keys.size() != 2 || !make_package(o, folder, a, name, keys[0], 1, one) ||
      !make_package(o, folder, a, name, keys[1], 2, two) ||
      !ran({o.anvilrt, "extract", folder + "/" + a, name, "-o", root + "/original", "-q"})) {
    std::fprintf(stderr, "anvilrt_bench: the mod package rows' packages could not be made\n");
    return;
  }
  const std::string data = "/Extracted/" + a + "/" + name + ".data";
  double put = 1e300, install = 1e300;
  for (int run = 0; run < o.runs; ++run) {
    copy_archives(folder, work);
    const CliRun p = run_cli({o.anvilrt, "put", work + "/" + a, one + data, "--in-place", "-q"});
    copy_archives(folder, work);
    const CliRun i = run_cli({o.anvilrt, "mod", "install", work, one, "-q"});
    if (p.wall < 0 || i.wall < 0) {
      std::fprintf(stderr, "anvilrt_bench: put or mod install of a package failed\n");
      return;
    }
    put = std::min(put, p.wall);
    install = std::min(install, i.wall);
  }
  copy_archives(folder, work);
  const CliRun check = fastest({o.anvilrt, "mod", "check", work, one, two}, o.runs);
  const CliRun diff = fastest({o.anvilrt, "diff", root + "/original/" + name + ".data", one + data}, o.runs, 1);
  std::printf(
      "mod install of a package of one whole data file (%s, %.1f MB decompressed): %.2f s = %.2f x put of it "
      "(%.2f s) (target <= 1.3)\n",
      name.c_str(), static_cast<double>(fs::file_size(one + data)) / 1e6, install, install / put, put);
  if (check.wall >= 0 && diff.wall >= 0)
    std::printf(
        "mod check of two packages of that data file: %.2f s = %.2f x diff of it with the original (%.2f s) "
        "(target <= 2)\n",
        check.wall, check.wall / diff.wall, diff.wall);
  else
    std::fprintf(stderr, "anvilrt_bench: mod check or diff of the packages failed\n");
  fs::remove_all(root, ec);
}

}  // namespace anvil::bench
