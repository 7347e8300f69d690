#include "bench/forge_rows.hpp"

#include <absl/strings/str_format.h>
#include <fcntl.h>
#include <lzo/lzo1x.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <functional>
#include <memory>
#include <thread>

#include "codec/lzo.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/input_file.hpp"

namespace anvil::bench {

CliRun fastest(const std::vector<std::string>& args, int runs, int expected) {
  CliRun best;
  for (int r = 0; r < runs; ++r) {
    CliRun run = run_cli(args, expected);
    if (run.wall < 0) return run;
    if (best.wall < 0 || run.wall < best.wall) {
      best.wall = run.wall;
      best.cpu = run.cpu;
    }
    best.peak_rss_kib = std::max(best.peak_rss_kib, run.peak_rss_kib);
  }
  return best;
}

namespace {

double wall_now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// The fastest of `runs` runs of the command.
// The fastest of `runs` calls of f, in seconds.
double fastest_seconds(const std::function<void()>& f, int runs) {
  double best = 1e300;
  for (int r = 0; r < runs; ++r) {
    double w0 = wall_now();
    f();
    best = std::min(best, wall_now() - w0);
  }
  return best;
}

bool generate(const ForgeRowOptions& o, u64 visuals, u64 datafiles, const std::string& path) {
  // gen --forge's --visuals is per entry body; a data file holds 2 entries on average.
  u64 per_body = std::max<u64>(1, visuals / (2 * datafiles));
  CliRun r = run_cli({o.anvilrt, "gen", "--forge", "--game", "ac2", "--datafiles", std::to_string(datafiles),
                      "--visuals", std::to_string(per_body), "--seed", "1", "-o", path});
  if (r.wall < 0) std::fprintf(stderr, "anvilrt_bench: gen --forge failed\n");
  return r.wall >= 0;
}

// The LZO1X blocks of every data file, as stored, with their decompressed sizes.
struct Blocks {
  std::vector<std::vector<u8>> stored;
  std::vector<std::size_t> sizes;
  std::size_t total = 0;
};
Blocks lzo1x_blocks(std::span<const u8> bytes, const forge::Archive& archive) {
  Blocks out;
  for (std::size_t i = 0; i < archive.files.size(); ++i) {
    auto stored = forge::read_stored(bytes, archive, i);
    if (!stored.ok() || !stored->compressed) continue;
    for (const std::optional<forge::BlockSet>* set : {&stored->first, &stored->second}) {
      if (!set->has_value() || forge::compression_of((*set)->compression) != forge::Compression::lzo1x) continue;
      for (const forge::Block& b : (*set)->blocks)
        if (!b.is_plain()) {
          out.stored.push_back(b.stored.bytes);
          out.sizes.push_back(b.uncompressed_size);
          out.total += b.uncompressed_size;
        }
      for (const forge::Chunk& c : (*set)->chunks)
        if (c.kind == forge::Chunk::kCompressed) {
          out.stored.push_back(c.stored.bytes);
          out.sizes.push_back(c.uncompressed_size);
          out.total += c.uncompressed_size;
        }
    }
  }
  return out;
}

void lzo_row(const std::string& archive_path, int runs) {
  auto in = InputFile::open(archive_path);
  if (!in.ok()) return;
  auto archive = forge::read_archive(in->bytes());
  if (!archive.ok()) return;
  Blocks blocks = lzo1x_blocks(in->bytes(), *archive);
  std::vector<u8> out(*std::max_element(blocks.sizes.begin(), blocks.sizes.end()));
  bool ok = true;
  double ours = fastest_seconds(
      [&] {
        for (std::size_t i = 0; i < blocks.stored.size(); ++i)
          ok &= codec::decompress_into(codec::Algorithm::lzo1x, blocks.stored[i], {out.data(), blocks.sizes[i]}).ok();
      },
      runs);
  double alone = fastest_seconds(
      [&] {
        for (std::size_t i = 0; i < blocks.stored.size(); ++i) {
          lzo_uint n = blocks.sizes[i];
          ok &= lzo1x_decompress_safe(blocks.stored[i].data(), blocks.stored[i].size(), out.data(), &n, nullptr) ==
                    LZO_E_OK &&
                n == blocks.sizes[i];
        }
      },
      runs);
  std::printf(
      "LZO1X decompression of %zu blocks (%.1f MB): codec %.0f MB/s, lzo1x_decompress_safe alone %.0f MB/s: "
      "%.2f x (target >= 0.8)%s\n",
      blocks.stored.size(), blocks.total / 1e6, blocks.total / 1e6 / ours, blocks.total / 1e6 / alone, alone / ours,
      ok ? "" : " FAILED");
}

}  // namespace

CliRun run_cli(const std::vector<std::string>& args, int expected) {
  double w0 = wall_now();
  pid_t pid = fork();
  if (pid == 0) {
    std::vector<char*> argv;
    for (auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
    argv.push_back(nullptr);
    int devnull = ::open("/dev/null", O_WRONLY);
    dup2(devnull, 1);
    dup2(devnull, 2);
    execv(argv[0], argv.data());
    _exit(127);
  }
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  CliRun r;
  if (WIFEXITED(status) && WEXITSTATUS(status) == expected) r.wall = wall_now() - w0;
  r.cpu = usage.ru_utime.tv_sec + usage.ru_stime.tv_sec + (usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) * 1e-6;
  r.peak_rss_kib = usage.ru_maxrss;
  return r;
}

std::string machine_line() {
  std::string model = "unknown CPU";
  if (std::FILE* f = std::fopen("/proc/cpuinfo", "r")) {
    char line[512];
    while (std::fgets(line, sizeof line, f))
      if (std::strncmp(line, "model name", 10) == 0)
        if (const char* colon = std::strchr(line, ':')) {
          model = colon + 2;
          if (!model.empty() && model.back() == '\n') model.pop_back();
          break;
        }
    std::fclose(f);
  }
  const std::size_t size = std::size_t{256} << 20;
  auto from = std::make_unique_for_overwrite<u8[]>(size), to = std::make_unique_for_overwrite<u8[]>(size);
  std::memset(from.get(), 0x5a, size);
  std::memset(to.get(), 0, size);  // both faulted in before the copies are timed
  double best = fastest_seconds([&] { std::memcpy(to.get(), from.get(), size); }, 5);
  return absl::StrFormat("machine: %s, %d cores; memcpy %.0f MB/s (256 MiB, the fastest of 5)", model,
                         std::thread::hardware_concurrency(), size / 1e6 / best);
}

namespace {

// A patch that grows one object (duplicate_instance: its data file's entry sizes follow and the rest of its
// block set is re-compressed, FORGE.md 5) against a patch of the same object that keeps its size, both by
// /datafiles/NAME/objects/KEY, in the archive at `archive`. The issue-26 target printed with the ratio.
void resize_row(const ForgeRowOptions& o, const std::string& archive) {
  auto in = InputFile::open(archive);
  if (!in.ok()) return;
  auto tables = forge::read_archive(in->bytes());
  if (!tables.ok()) return;
  // The largest compressed data file: the most that a resize could have to re-compress (a plain one has
  // nothing to re-compress).
  std::optional<std::size_t> largest;
  for (std::size_t i = 0; i < tables->files.size(); ++i) {
    auto stored = forge::read_stored(in->bytes(), *tables, i);
    if (!stored.ok() || !stored->compressed) continue;
    if (!largest || tables->files[i].index.size > tables->files[*largest].index.size) largest = i;
  }
  if (!largest) return;
  const std::size_t biggest = *largest;
  forge::ArchiveLevels levels(in->bytes(), *tables, Game::ac2, {biggest});
  auto level = levels.level(0);
  if (!level.ok()) return;
  // Two Visuals with an instance to duplicate: the first one from the middle of the data file on (the
  // typical case: an object anywhere re-compresses half the data file on average) and the first one of all
  // (the worst case: nearly the whole data file re-compressed). The resize shifts everything after it.
  std::string middle, first;
  for (const Piece& p : (*level)->pieces) {
    if (!p.is_object()) continue;
    const bool after_middle = p.offset >= (*level)->bytes.size() / 2;
    if (!first.empty() && !after_middle) continue;
    Object object = parse_piece(**level, p);
    const auto* visual = std::get_if<ac2::Visual>(&object);
    if (visual == nullptr || !visual->instance) continue;
    const auto* lod = std::get_if<ac2::LODSelectorInstance>(&visual->instance->body);
    if (lod == nullptr || lod->instances.empty()) continue;
    if (first.empty()) first = object_key(p, Game::ac2);
    if (after_middle) {
      middle = object_key(p, Game::ac2);
      break;
    }
  }
  const std::string name = levels.name(0);
  const std::size_t data_size = (*level)->bytes.size();
  levels.release(0);
  for (const auto& [key, where] : {std::pair{middle, "from the middle of"}, std::pair{first, "at the start of"}}) {
    if (key.empty()) continue;
    const std::string pointer = "/datafiles/" + name + "/objects/" + key;
    // Kept after the run (one pair per object), to be re-run by hand.
    const std::string tag = key == middle ? "middle" : "start";
    const std::string same = o.dir + "/resize-same-" + tag + ".json", grow = o.dir + "/resize-grow-" + tag + ".json",
                      out = o.dir + "/resize-patched.forge";
    if (std::FILE* f = std::fopen(same.c_str(), "w")) {
      std::fprintf(f, "[{\"op\":\"replace\",\"path\":\"%s/managed\",\"value\":1}]", pointer.c_str());
      std::fclose(f);
    }
    if (std::FILE* f = std::fopen(grow.c_str(), "w")) {
      std::fprintf(f,
                   "[{\"op\":\"duplicate_instance\",\"datafiles\":[\"%s\"],\"objects\":[\"%s\"],\"index\":0,"
                   "\"translate\":[1,2,3]}]",
                   name.c_str(), key.c_str());
      std::fclose(f);
    }
    // The default path (--game auto, all cores), as a user runs it.
    CliRun kept = fastest({o.anvilrt, "patch", archive, same, "-o", out, "-q"}, o.runs);
    CliRun grown = fastest({o.anvilrt, "patch", archive, grow, "-o", out, "-q"}, o.runs);
    std::filesystem::remove(out);
    if (kept.wall < 0 || grown.wall < 0) {
      std::printf("resizing patch of one object: failed\n");
      continue;
    }
    std::printf(
        "resizing patch of one object %s a %.1f MiB compressed data file of a %.0f MB archive (duplicate_instance): "
        "%.2f s (peak RSS %.0f MiB), the same object patched in place %.2f s (%.0f MiB): %.2f x (target <= 1.5%s: "
        "%s)\n",
        where, data_size / 1048576.0, std::filesystem::file_size(archive) / 1e6, grown.wall,
        grown.peak_rss_kib / 1024.0, kept.wall, kept.peak_rss_kib / 1024.0, grown.wall / kept.wall,
        key == middle ? "" : ", judged on the typical case above", grown.wall <= 1.5 * kept.wall ? "met" : "NOT met");
  }
}

// `put` of data file 0 of `archive`, extracted and edited one byte in its middle, against compressing
// that data file (LZO1X-999, blocks of 0x8000, in process) plus copying the archive durably (the copy
// synced, as put's temporary is): the issue-24 target is <= 2, and a peak RSS <= 64 MiB + the data file.
void put_row(const ForgeRowOptions& o, const std::string& archive, const std::string& label) {
  namespace fs = std::filesystem;
  auto in = InputFile::open(archive);
  if (!in.ok()) return;
  auto tables = forge::read_archive(in->bytes());
  if (!tables.ok() || tables->files.empty()) return;
  const std::string dir = o.dir + "/put-" + label;
  fs::remove_all(dir);
  if (run_cli({o.anvilrt, "extract", archive, "0x" + absl::StrFormat("%08x", tables->files[0].index.file_id.value),
               "-o", dir, "-q"})
          .wall < 0)
    return;
  std::string file;  // the data file (extract also writes forge.json beside it)
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().extension() == ".data") file = e.path().string();
  if (file.empty()) return;
  auto data = InputFile::open(file);
  if (!data.ok()) return;
  std::vector<u8> edited(data->bytes().begin(), data->bytes().end());
  if (edited.empty()) return;
  edited[edited.size() / 2] ^= 1;
  if (std::FILE* f = std::fopen(file.c_str(), "wb")) {
    std::fwrite(edited.data(), 1, edited.size(), f);
    std::fclose(f);
  }
  const std::string out = o.dir + "/put-out.forge", copy = o.dir + "/put-copy.forge";
  CliRun p = fastest({o.anvilrt, "put", archive, file, "-o", out, "-q"}, o.runs);
  // Grown by 4 KiB in the middle: the blocks from there on are re-cut and re-compressed.
  std::vector<u8> grown = edited;
  grown.insert(grown.begin() + static_cast<std::ptrdiff_t>(grown.size() / 2), 4096, 0x5A);
  const std::string grown_file = dir + "/grown.bin";
  if (std::FILE* f = std::fopen(grown_file.c_str(), "wb")) {
    std::fwrite(grown.data(), 1, grown.size(), f);
    std::fclose(f);
  }
  CliRun g = fastest({o.anvilrt, "put", archive, grown_file, "--as",
                      "0x" + absl::StrFormat("%08x", tables->files[0].index.file_id.value), "--raw", "-o", out, "-q"},
                     o.runs);
  double compress = fastest_seconds(
      [&] {
        for (std::size_t at = 0; at < edited.size(); at += 0x8000)
          (void)codec::compress(codec::Algorithm::lzo1x, std::span<const u8>(edited).subspan(
                                                             at, std::min<std::size_t>(0x8000, edited.size() - at)));
      },
      1);
  double durable = fastest_seconds(
      [&] {
        fs::remove(copy);
        fs::copy_file(archive, copy);
        int fd = ::open(copy.c_str(), O_RDONLY);
        if (fd >= 0) {
          ::fsync(fd);
          ::close(fd);
        }
      },
      o.runs);
  const double mib = edited.size() / 1048576.0;
  std::printf(
      "put of a %.1f MiB data file into the %.0f MB %s archive, one byte edited: %.2f s = %.2f x (compressing that "
      "data file %.2f s + copying the archive and syncing the copy %.2f s) (target <= 2); peak RSS %.0f MiB (target "
      "<= 64 MiB + %.1f MiB); grown by 4 KiB in the middle: %.2f s = %.2f x, peak RSS %.0f MiB\n",
      mib, fs::file_size(archive) / 1e6, label.c_str(), p.wall, p.wall / (compress + durable), compress, durable,
      p.peak_rss_kib / 1024.0, mib, g.wall, g.wall / (compress + durable), g.peak_rss_kib / 1024.0);
  fs::remove(copy);
  fs::remove(out);
  fs::remove_all(dir);
}

}  // namespace

// A resize re-compresses its data file from the resized entry on (FORGE.md 5), so its cost follows the size of
// the data file, not of the archive: resize_row on a 150 MB archive of the census Visuals' share in 512 data
// files of 0.2-0.7 MB decompressed, where the census archive has data files of about 20 MB.
void small_datafiles_resize_row(const ForgeRowOptions& o) {
  const std::string small = o.dir + "/small-datafiles.forge";
  if (!generate(o, o.visuals * 165 / 296, 512, small)) return;
  std::printf(".forge: a share of the census-size level's Visuals as 512 data files, %.1f MB archive\n",
              std::filesystem::file_size(small) / 1e6);
  resize_row(o, small);
  std::filesystem::remove(small);
}

void resize_rows(const ForgeRowOptions& o) {
  const std::string archive = o.dir + "/census.forge";
  if (!generate(o, o.visuals, o.datafiles, archive)) return;
  std::printf(".forge: the census-size level as %llu data files, %.1f MB archive\n",
              static_cast<unsigned long long>(o.datafiles), std::filesystem::file_size(archive) / 1e6);
  resize_row(o, archive);
  small_datafiles_resize_row(o);
}

void put_rows(const ForgeRowOptions& o) {
  // generate() puts visuals / (2 x data files) Visuals in each entry body: 14,370 each makes the first data
  // file's two bodies about 20 MB, and 75 such data files about 1 GB stored.
  const u64 datafiles = 75, per_body = 14370;
  const std::string archive = o.dir + "/put-1gb.forge";
  if (!generate(o, per_body * 2 * datafiles, datafiles, archive)) return;
  put_row(o, archive, "1 GB");
  std::filesystem::remove(archive);
}

void forge_rows(const ForgeRowOptions& o) {
  namespace fs = std::filesystem;
  if (lzo_init() != LZO_E_OK) return;
  same_objects_rows(o);
  const std::string archive = o.dir + "/census.forge", data = o.dir + "/census-data";
  if (!generate(o, o.visuals, o.datafiles, archive)) return;
  fs::remove_all(data);
  if (run_cli({o.anvilrt, "extract", archive, "-o", data}).wall < 0) return;
  std::printf("\n.forge: the census-size level as %llu data files, %.1f MB archive\n",
              static_cast<unsigned long long>(o.datafiles), fs::file_size(archive) / 1e6);
  auto verify = [&](const std::string& path, const char* jobs) {
    return fastest({o.anvilrt, "verify", "--quiet", "--game", "ac2", "--jobs", jobs, path}, o.runs).wall;
  };
  double packed = verify(archive, "1"), plain = verify(data, "1");
  std::printf(
      "verify --jobs 1: archive %.2f s, the same data files decompressed %.2f s: %.2f x the speed (target >= "
      "0.5)\n",
      packed, plain, plain / packed);
  double two = verify(archive, "2");
  std::printf("verify of the archive: --jobs 1 %.2f s, --jobs 2 %.2f s: %.2f x (target >= 1.7)\n", packed, two,
              packed / two);
  auto stats = [&](const char* jobs) {
    return fastest({o.anvilrt, "stats", "--game", "ac2", "--jobs", jobs, archive}, o.runs).wall;
  };
  double s1 = stats("1"), s2 = stats("2");
  std::printf("stats of the archive: --jobs 1 %.2f s, --jobs 2 %.2f s: %.2f x (target >= 1.7)\n", s1, s2, s1 / s2);
  lzo_row(archive, o.runs);
  resize_row(o, archive);
  small_datafiles_resize_row(o);
  put_row(o, archive, "census");
  diff_rows(o);

  if (o.big_visuals == 0) return;
  const std::string big = o.dir + "/big.forge";
  if (!generate(o, o.big_visuals, 256, big)) return;
  std::printf("\n.forge: a %.0f MB archive of 256 data files\n", fs::file_size(big) / 1e6);
  CliRun ls = fastest({o.anvilrt, "ls", big}, o.runs);
  std::printf("ls: %.1f ms (target < 50 ms)\n", ls.wall * 1e3);
  // One object of the first data file, by its /datafiles pointer: only that data file is read.
  auto in = InputFile::open(big);
  if (!in.ok()) return;
  auto tables = forge::read_archive(in->bytes());
  if (!tables.ok()) return;
  forge::ArchiveLevels levels(in->bytes(), *tables, Game::ac2);
  auto level = levels.level(0);
  if (!level.ok()) return;
  auto piece =
      std::find_if((*level)->pieces.begin(), (*level)->pieces.end(), [](const Piece& p) { return p.is_object(); });
  if (piece == (*level)->pieces.end()) return;
  std::string patch = o.dir + "/big-patch.json";
  if (std::FILE* f = std::fopen(patch.c_str(), "w")) {
    std::fprintf(f, "[{\"op\":\"replace\",\"path\":\"/datafiles/%s/objects/%s/managed\",\"value\":1}]",
                 levels.name(0).c_str(), object_key(*piece, Game::ac2).c_str());
    std::fclose(f);
  }
  std::size_t data_size = (*level)->bytes.size();
  levels.release(0);
  const std::string out = o.dir + "/big-patched.forge", copy = o.dir + "/big-copy.forge";
  CliRun p = fastest({o.anvilrt, "patch", big, patch, "-o", out, "--game", "ac2", "-q"}, o.runs);
  const forge::ChecksumVerdict checksums = forge::archive_checksums(in->bytes(), *tables).verdict;
  double decompress = fastest_seconds([&] { (void)forge::read_data_file(in->bytes(), *tables, 0, checksums); }, o.runs);
  double copied = fastest_seconds(
      [&] {
        fs::remove(copy);
        fs::copy_file(big, copy);
      },
      o.runs);
  // patch writes atomically: a temporary file, synced to the disk before it is renamed over the target
  // (so that a crash leaves the old file or the new one). The same copy made durable is the fair measure.
  double durable = fastest_seconds(
      [&] {
        fs::remove(copy);
        fs::copy_file(big, copy);
        int fd = ::open(copy.c_str(), O_RDONLY);
        if (fd >= 0) {
          ::fsync(fd);
          ::close(fd);
        }
      },
      o.runs);
  std::printf(
      "patch of one object: %.2f s = %.2f x (decompressing its data file %.3f s + copying the archive and syncing "
      "the copy %.2f s) (target <= 2); %.2f x without the sync (%.2f s); peak RSS %.0f MiB (target <= 64 MiB + its "
      "data file's %.1f MiB)\n",
      p.wall, p.wall / (decompress + durable), decompress, durable, p.wall / (decompress + copied), copied,
      p.peak_rss_kib / 1024.0, data_size / 1048576.0);
  fs::remove(copy);
  fs::remove(out);
  resize_row(o, big);
  put_rows(o);  // the issue-24 row: a 20 MB data file into a 1 GB archive
}

void diff_rows(const ForgeRowOptions& o) {
  namespace fs = std::filesystem;
  // The census-size level's Visuals make an archive of about 296 MB this way: about 150 MB is that share of
  // them, in 16 data files of about 9 MB each.
  const u64 visuals = o.visuals * 150 / 296, datafiles = 16;
  const std::size_t changed = datafiles / 2;
  const std::string a = o.dir + "/diff-a.forge", b = o.dir + "/diff-b.forge", patch = o.dir + "/diff-patch.json";
  if (visuals == 0 || !generate(o, visuals, datafiles, a)) return;
  auto in_a = InputFile::open(a);
  if (!in_a.ok()) return;
  auto tables_a = forge::read_archive(in_a->bytes());
  if (!tables_a.ok()) return;
  forge::ArchiveLevels levels(in_a->bytes(), *tables_a, Game::ac2);
  auto level = levels.level(changed);
  if (!level.ok()) return;
  auto piece =
      std::find_if((*level)->pieces.begin(), (*level)->pieces.end(), [](const Piece& p) { return p.is_object(); });
  if (piece == (*level)->pieces.end()) return;
  const std::string name = levels.name(changed), key = object_key(*piece, Game::ac2);
  const std::size_t data_size = (*level)->bytes.size();
  levels.release(changed);
  // One flag of one object: set to 1, or to 0 where it already was 1 (diff then exits 1, they differ).
  bool differ = false;
  for (int value : {1, 0}) {
    if (std::FILE* f = std::fopen(patch.c_str(), "w")) {
      std::fprintf(f, "[{\"op\":\"replace\",\"path\":\"/datafiles/%s/objects/%s/managed\",\"value\":%d}]", name.c_str(),
                   key.c_str(), value);
      std::fclose(f);
    }
    if (run_cli({o.anvilrt, "patch", a, patch, "-o", b, "--game", "ac2", "-q"}).wall < 0) return;
    if ((differ = run_cli({o.anvilrt, "diff", a, b, "--game", "ac2", "-q"}, 1).wall >= 0)) break;
  }
  if (!differ) return;
  auto in_b = InputFile::open(b);
  if (!in_b.ok()) return;
  auto tables_b = forge::read_archive(in_b->bytes());
  if (!tables_b.ok()) return;
  const forge::ChecksumVerdict rule_a = forge::archive_checksums(in_a->bytes(), *tables_a).verdict;
  const forge::ChecksumVerdict rule_b = forge::archive_checksums(in_b->bytes(), *tables_b).verdict;
  // Each time into memory handed back to the system first (malloc_trim), as a fresh process, such as diff,
  // has it: otherwise the later runs reuse the first one's pages and skip its page faults.
  double twice = 1e300;
  for (int r = 0; r < o.runs; ++r) {
    malloc_trim(0);
    const double w0 = wall_now();
    auto da = forge::read_data_file(in_a->bytes(), *tables_a, changed, rule_a);
    auto db = forge::read_data_file(in_b->bytes(), *tables_b, changed, rule_b);
    twice = std::min(twice, wall_now() - w0);
  }
  // The default path (--game auto, all cores), as a user runs it.
  CliRun d = fastest({o.anvilrt, "diff", a, b, "-q"}, o.runs, 1);
  std::printf(
      "\ndiff of two %.0f MB archives of %llu data files differing in one (%.1f MB decompressed): %.3f s = %.2f x "
      "decompressing that data file twice (%.3f s) (target <= 1.5); its CPU (user + sys, on 2 threads) %.3f s; "
      "peak RSS %.0f MiB\n",
      fs::file_size(a) / 1e6, static_cast<unsigned long long>(datafiles), data_size / 1e6, d.wall, d.wall / twice,
      twice, d.cpu, d.peak_rss_kib / 1024.0);
  fs::remove(a);
  fs::remove(b);
  fs::remove(patch);
}

}  // namespace anvil::bench
