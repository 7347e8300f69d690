// The issue-40 rows (bench/forge_rows.hpp mod_rows): `anvilrt mod` over a game folder of about 1 GB.
#include <absl/strings/str_format.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <vector>

#include "bench/forge_rows.hpp"
#include "platform/durable_file.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/input_file.hpp"
#include "reader/level.hpp"

namespace anvil::bench {
namespace {

namespace fs = std::filesystem;

// The folder: three archives of 29 data files whose entry bodies hold 14,370 Visuals each (about 11.7 MB
// stored per data file, 340 MB per archive), from three seeds, so that no key is held by two archives.
constexpr int kArchives = 3;
constexpr u64 kDataFiles = 29, kVisualsPerBody = 14370;
// The data file each mod changes, in its own archive: one in the middle, a compressed one (gen stores every
// third data file plain).
constexpr std::size_t kTouched = 10;

struct ModTarget {
  std::string archive;   // its file name in the folder
  std::string key;       // the first object of data file kTouched
  u64 stored_bytes = 0;  // that data file's stored bytes and its table entries (what undo data may cost)
};

// The first object of data file kTouched of `path`, and the data file's stored size.
bool find_target(const std::string& path, ModTarget& target) {
  auto in = InputFile::open(path);
  if (!in.ok()) return false;
  auto archive = forge::read_archive(in->bytes());
  if (!archive.ok() || archive->files.size() <= kTouched) return false;
  forge::ArchiveLevels levels(in->bytes(), *archive, Game::ac2);
  auto level = levels.level(kTouched);
  if (!level.ok()) return false;
  for (const Piece& p : (*level)->pieces)
    if (p.is_object()) {
      target.key = object_key(p, Game::ac2);
      break;
    }
  const forge::DataFileAt& file = archive->files[kTouched];
  target.stored_bytes =
      file.header_size + file.index.size + archive->layout().index_entry + archive->layout().name_entry;
  return !target.key.empty();
}

void write_text(const std::string& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// The folder's archives copied into `to` (made anew) and synced: a player's game folder is on the disk. A copy
// left in the page cache unwritten would let `patch --in-place` drop its replaced archive's pages without
// ever writing them, and let anything that syncs (the mod commands' journal) write the whole folder first.
bool copy_folder(const std::string& from, const std::string& to) {
  std::error_code ec;
  fs::remove_all(to, ec);
  fs::create_directories(to, ec);
  for (const auto& e : fs::directory_iterator(from)) {
    if (e.path().extension() != ".forge") continue;
    const std::string copy = (fs::path(to) / e.path().filename()).string();
    if (!fs::copy_file(e.path(), copy, ec)) return false;
    std::FILE* file = std::fopen(copy.c_str(), "r+b");
    const bool synced = file != nullptr && platform::sync_file(file, copy).ok();
    if (file != nullptr) std::fclose(file);
    if (!synced) return false;
  }
  return !ec;
}

// The command's wall time, or nothing (said on stderr) when it failed.
std::optional<double> timed(const std::vector<std::string>& args, const char* what) {
  const CliRun r = run_cli(args);
  if (r.wall >= 0) return r.wall;
  std::fprintf(stderr, "anvilrt_bench: %s failed\n", what);
  return std::nullopt;
}

u64 undo_bytes(const std::string& folder) {
  u64 total = 0;
  const fs::path undo = fs::path(folder) / ".anvilrt" / "mods" / "undo";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(undo, ec)) total += e.file_size();
  return total;
}

}  // namespace

void mod_rows(const ForgeRowOptions& o) {
  const std::string original = o.dir + "/mods-1gb", work = o.dir + "/mods-1gb-work", mods = o.dir + "/mods-1gb-mods";
  fs::remove_all(original);
  fs::create_directories(original);
  fs::create_directories(mods);
  std::vector<ModTarget> targets(kArchives);
  std::vector<std::string> mod_files, patch_args;
  u64 folder_bytes = 0, touched_bytes = 0;
  for (int i = 0; i < kArchives; ++i) {
    ModTarget& t = targets[i];
    t.archive = absl::StrFormat("level%d.forge", i + 1);
    const std::string path = original + "/" + t.archive;
    if (run_cli({o.anvilrt, "gen", "--forge", "--game", "ac2", "--datafiles", std::to_string(kDataFiles), "--visuals",
                 std::to_string(kVisualsPerBody), "--seed", std::to_string(10 + i), "-o", path, "-q"})
                .wall < 0 ||
        !find_target(path, t)) {
      std::fprintf(stderr, "anvilrt_bench: the mod rows' folder could not be made\n");
      return;
    }
    folder_bytes += fs::file_size(path);
    touched_bytes += t.stored_bytes;
    // The mod addresses the key through the folder (/objects/KEY: found in whichever archive holds it).
    const std::string mod = absl::StrFormat("%s/mod%d.json", mods, i + 1);
    write_text(mod, absl::StrFormat("[{\"op\":\"replace\",\"path\":\"/objects/%s/managed\",\"value\":1}]", t.key));
    mod_files.push_back(mod);
  }
  std::printf(
      "\nmods: a game folder of %d archives, %.0f MB; 3 mods, each one object of data file %zu of its own "
      "archive (%.1f MB stored in all)\n",
      kArchives, folder_bytes / 1e6, kTouched, touched_bytes / 1e6);

  // Each command on a fresh copy of the folder, alternating, the fastest of --runs runs of each.
  double install = 1e300, install_kept = 1e300, patch = 1e300, check_new = 1e300, check_kept = 1e300;
  u64 undo = 0;
  for (int run = 0; run < o.runs; ++run) {
    if (!copy_folder(original, work)) return;
    std::vector<std::string> args{o.anvilrt, "mod", "install", work};
    args.insert(args.end(), mod_files.begin(), mod_files.end());
    args.push_back("-q");
    const auto fresh = timed(args, "mod install");
    if (!fresh) return;
    install = std::min(install, *fresh);
    undo = undo_bytes(work);

    if (!copy_folder(original, work)) return;
    double sum = 0;
    for (int i = 0; i < kArchives; ++i) {
      const auto p = timed(
          {o.anvilrt, "patch", work + "/" + targets[i].archive, mod_files[i], "--in-place", "--game", "ac2", "-q"},
          "patch");
      if (!p) return;
      sum += *p;
    }
    patch = std::min(patch, sum);

    // check in a folder anvilrt has not written to (it looks every data file through), then in one where
    // it keeps its key cache (DIR/.anvilrt/keys.cache, pipeline/folder_key_cache.hpp), as after an install.
    if (!copy_folder(original, work)) return;
    args[2] = "check";
    args.pop_back();  // -q: check prints its report
    const auto cold = timed(args, "mod check");
    fs::create_directory(work + "/.anvilrt");
    const auto learning = timed(args, "mod check (learning the key cache)");
    const auto kept = timed(args, "mod check (with the key cache)");
    if (!cold || !learning || !kept) return;
    check_new = std::min(check_new, *cold);
    check_kept = std::min(check_kept, *kept);

    // install after that check: the mods checked, then installed, into a folder whose key cache is kept.
    args[2] = "install";
    args.push_back("-q");
    const auto after_check = timed(args, "mod install after check");
    if (!after_check) return;
    install_kept = std::min(install_kept, *after_check);
  }
  std::printf(
      "mod install of the 3 mods: %.2f s = %.2f x patch of the same op on each archive (%.2f s in all) "
      "(target <= 1.3), into a folder anvilrt has not written to; %.2f s = %.2f x after check, with the folder's "
      "key cache\n",
      install, install / patch, patch, install_kept, install_kept / patch);
  std::printf(
      "mod check of the 3 mods: %.3f s with the folder's key cache (target <= 0.5 s); %.2f s in a folder "
      "anvilrt has not written to (no cache)\n",
      check_kept, check_new);
  const double limit = 1.1 * static_cast<double>(touched_bytes) + 1048576.0;
  std::printf(
      "undo data: %.2f MB = %.2f x the touched data files' stored bytes and table entries (%.2f MB); the "
      "target's limit, 1.1 x those + 1 MiB, is %.2f MB: %s\n",
      undo / 1e6, static_cast<double>(undo) / static_cast<double>(touched_bytes), touched_bytes / 1e6, limit / 1e6,
      static_cast<double>(undo) <= limit ? "met" : "not met");
  mod_sync_rows(o, original);
  fs::remove_all(work);
  fs::remove_all(original);
  fs::remove_all(mods);
}

}  // namespace anvil::bench
