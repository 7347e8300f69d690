// The same objects in four forms (bench/forge_rows.hpp same_objects_rows): the issue-25 rows and the
// issue-39 row of an archive whose data files are all LZO1X.
#include <rapidjson/document.h>
#include <rapidjson/prettywriter.h>
#include <rapidjson/stringbuffer.h>

#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>
#include <vector>

#include "bench/forge_rows.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "reader/input_file.hpp"
#include "reader/level.hpp"

namespace anvil::bench {
namespace {

// The archive of `plain` (a folder `extract` wrote) packed again with every data file stored as LZO1X in
// two block sets (forge.json's members, docs/forge-json.md), at `out`: the same objects as the generated
// archive, whose data files take turns at LZO1X, LZO2A and plain. False when a step fails.
bool pack_as_lzo1x(const ForgeRowOptions& o, const std::string& plain, const std::string& out) {
  namespace fs = std::filesystem;
  const std::string folder = out + ".d";
  fs::remove_all(folder);
  std::error_code ec;
  fs::create_directories(folder, ec);
  if (ec) return false;
  rapidjson::Document list;
  {
    std::ifstream in(plain + "/forge.json");
    std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    list.Parse(text.c_str());
  }
  if (list.HasParseError() || !list.IsObject() || !list.HasMember("datafiles")) return false;
  auto& a = list.GetAllocator();
  for (auto& d : list["datafiles"].GetArray()) {
    const std::string file = d["file"].GetString();
    fs::create_hard_link(fs::path(plain) / file, fs::path(folder) / file, ec);
    if (ec) fs::copy_file(fs::path(plain) / file, fs::path(folder) / file, ec);
    if (ec) return false;
    d.RemoveMember("sets");
    d.RemoveMember("first_set_size");
    d.RemoveMember("block_size");
    d.RemoveMember("compression");
    d.RemoveMember("form");
    d.RemoveMember("raw_size");
    d.AddMember("compression", "lzo1x", a);
    d.AddMember("form", "two block sets", a);
    d.AddMember("block_size", 32768, a);
  }
  rapidjson::StringBuffer text;
  rapidjson::PrettyWriter<rapidjson::StringBuffer> writer(text);
  list.Accept(writer);
  std::ofstream(folder + "/forge.json") << text.GetString();
  const bool packed = run_cli({o.anvilrt, "pack", folder, "-o", out, "-q"}).wall >= 0;
  fs::remove_all(folder);
  return packed;
}

}  // namespace

void same_objects_rows(const ForgeRowOptions& o) {
  namespace fs = std::filesystem;
  // As issue 25 measured: 5 data files of 1-3 entry bodies of `per_body` Visuals each.
  const u64 per_body = std::max<u64>(1, o.visuals / 20);
  const std::string archive = o.dir + "/same.forge", plain = o.dir + "/same-plain", bare = o.dir + "/same-bare";
  if (run_cli({o.anvilrt, "gen", "--forge", "--game", "ac2", "--datafiles", "5", "--visuals", std::to_string(per_body),
               "--seed", "5", "-q", "-o", archive})
          .wall < 0) {
    std::fprintf(stderr, "anvilrt_bench: gen --forge failed\n");
    return;
  }
  fs::remove_all(plain);
  fs::remove_all(bare);
  if (run_cli({o.anvilrt, "extract", archive, "-o", plain, "-q"}).wall < 0) return;
  fs::create_directories(bare);
  // Each data file's bodies, end to end, as a level file: the same objects with no entry table.
  u64 decompressed = 0, bodies = 0, largest = 0;
  std::vector<fs::path> datas;
  for (const auto& e : fs::directory_iterator(plain))
    if (e.path().extension() == ".data") datas.push_back(e.path());  // not extract's forge.json
  std::sort(datas.begin(), datas.end());
  for (const fs::path& p : datas) {
    auto in = InputFile::open(p.string());
    auto view = in.ok() ? forge::view_data_file(in->bytes()) : in.status();
    if (!view.ok()) {
      std::fprintf(stderr, "anvilrt_bench: %s: %s\n", p.c_str(), std::string(view.status().message()).c_str());
      return;
    }
    decompressed += in->bytes().size();
    largest = std::max<u64>(largest, in->bytes().size());
    std::FILE* f = std::fopen((bare + "/" + p.stem().string() + ".bin").c_str(), "wb");
    if (!f) return;
    for (std::size_t e = 0; e < view->file.entries.size(); ++e) {
      std::fwrite(view->body(e).data(), 1, view->body(e).size(), f);
      bodies += view->body(e).size();
    }
    std::fclose(f);
  }
  const std::string lzo1x = o.dir + "/same-lzo1x.forge";
  if (!pack_as_lzo1x(o, plain, lzo1x)) {
    std::fprintf(stderr, "anvilrt_bench: pack of the LZO1X archive failed\n");
    return;
  }
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  std::printf(
      "\nThe same objects in four forms (gen --forge --datafiles 5 --visuals %llu --seed 5): %.1f MB archive, "
      "%zu data files of %.1f MB decompressed (the largest %.1f MB), their bodies %.1f MB as level files; the LZO1X "
      "archive is the same data files packed as LZO1X in two block sets; "
      "verify --no-json with the default --game auto, the fastest of %d runs; MB/s of decompressed bytes\n\n",
      static_cast<unsigned long long>(per_body), fs::file_size(archive) / 1e6, datas.size(), decompressed / 1e6,
      largest / 1e6, bodies / 1e6, o.runs);
  std::printf(
      "| form | --jobs 1 s | MB/s | its CPU s (user + sys) | --jobs %u s | MB/s | peak RSS MiB (all cores) |\n"
      "|---|---|---|---|---|---|---|\n",
      cores);
  struct Form {
    const char* name;
    std::string path;
    double bytes;
    CliRun one, all;
  };
  Form forms[] = {{"bare level files", bare, static_cast<double>(bodies), {}, {}},
                  {"plain data files", plain, static_cast<double>(decompressed), {}, {}},
                  {"archive", archive, static_cast<double>(decompressed), {}, {}},
                  {"LZO1X archive", lzo1x, static_cast<double>(decompressed), {}, {}}};
  // In rounds over the forms, so that a slow spell of a shared machine lands on each alike.
  for (int round = 0; round < o.runs; ++round)
    for (Form& f : forms) {
      auto best = [](CliRun& kept, const CliRun& run) {
        if (run.wall < 0 || kept.wall < 0) {
          kept.wall = -1;  // a failed run fails the row
          return;
        }
        kept.wall = std::min(kept.wall, run.wall);
        kept.cpu = std::min(kept.cpu, run.cpu);
        kept.peak_rss_kib = std::max(kept.peak_rss_kib, run.peak_rss_kib);
      };
      CliRun one = run_cli({o.anvilrt, "verify", "--no-json", "-q", "--jobs", "1", f.path});
      CliRun all = run_cli({o.anvilrt, "verify", "--no-json", "-q", f.path});
      if (round == 0) {
        f.one = one;
        f.all = all;
      } else {
        best(f.one, one);
        best(f.all, all);
      }
    }
  for (Form& f : forms) {
    if (f.one.wall < 0 || f.all.wall < 0) {
      std::printf("| %s | failed | | | | |\n", f.name);
      return;
    }
    std::printf("| %s | %.2f | %.0f | %.2f | %.2f | %.0f | %.0f |\n", f.name, f.one.wall, f.bytes / 1e6 / f.one.wall,
                f.one.cpu, f.all.wall, f.bytes / 1e6 / f.all.wall, f.all.peak_rss_kib / 1024.0);
  }
  auto rate = [](const Form& f, bool one) { return f.bytes / (one ? f.one.wall : f.all.wall); };
  const Form &b = forms[0], &d = forms[1], &a = forms[2], &x = forms[3];
  auto met = [](bool ok) { return ok ? "met" : "NOT met"; };
  // By CPU time too: on a shared machine the wall time of one form can fall in a slow spell.
  auto cpu_rate = [](const Form& f) { return f.bytes / f.one.cpu; };
  std::printf("\nby CPU time at --jobs 1: plain data files %.2f x the bare level's speed, the archive %.2f x\n",
              cpu_rate(d) / cpu_rate(b), cpu_rate(a) / cpu_rate(b));
  std::printf(
      "\nplain data files: %.2f x the bare level's speed at --jobs 1, %.2f x on all cores (target >= 0.8: %s)\n",
      rate(d, true) / rate(b, true), rate(d, false) / rate(b, false),
      met(rate(d, true) >= 0.8 * rate(b, true) && rate(d, false) >= 0.8 * rate(b, false)));
  std::printf(
      "archive: %.2f x the bare level's speed per decompressed byte at --jobs 1 (target >= 0.5: %s), %.2f x on "
      "all cores\n",
      rate(a, true) / rate(b, true), met(rate(a, true) >= 0.5 * rate(b, true)), rate(a, false) / rate(b, false));
  std::printf(
      "LZO1X archive: %.2f x the bare level's speed on all cores (issue-39 target >= 0.8: %s), %.2f x at --jobs 1\n",
      rate(x, false) / rate(b, false), met(rate(x, false) >= 0.8 * rate(b, false)), rate(x, true) / rate(b, true));
  const double rss_limit = fs::file_size(archive) / 1048576.0 + cores * (largest / 1048576.0) + 64;
  std::printf(
      "archive: peak RSS %.0f MiB on all cores (target <= the archive %.0f MiB + %u x the largest data file "
      "%.0f MiB + 64 MiB = %.0f MiB: %s)\n",
      a.all.peak_rss_kib / 1024.0, fs::file_size(archive) / 1048576.0, cores, largest / 1048576.0, rss_limit,
      met(a.all.peak_rss_kib / 1024.0 <= rss_limit));

  // One object of the largest data file, patched by its key alone and by its data file's name.
  auto in = InputFile::open(archive);
  if (!in.ok()) return;
  auto tables = forge::read_archive(in->bytes());
  if (!tables.ok()) return;
  std::size_t biggest = 0;
  for (std::size_t i = 0; i < tables->files.size(); ++i)
    if (tables->files[i].index.size > tables->files[biggest].index.size) biggest = i;
  forge::ArchiveLevels levels(in->bytes(), *tables, Game::ac2, {biggest});
  auto level = levels.level(0);
  if (!level.ok()) return;
  // An object half-way into the data file, whose key no other data file holds (the generator's ids are
  // random 64-bit numbers).
  std::vector<const Piece*> objects;
  for (const Piece& p : (*level)->pieces)
    if (p.is_object()) objects.push_back(&p);
  if (objects.empty()) return;
  const std::string key = object_key(*objects[objects.size() / 2], Game::ac2), name = levels.name(0);
  levels.release(0);
  auto write_patch = [&](const std::string& path, const std::string& pointer) {
    if (std::FILE* f = std::fopen(path.c_str(), "w")) {
      std::fprintf(f, "[{\"op\":\"replace\",\"path\":\"%s/managed\",\"value\":1}]", pointer.c_str());
      std::fclose(f);
    }
  };
  const std::string by_key = o.dir + "/same-by-key.json", by_name = o.dir + "/same-by-name.json",
                    out = o.dir + "/same-patched.forge";
  write_patch(by_key, "/objects/" + key);
  write_patch(by_name, "/datafiles/" + name + "/objects/" + key);
  CliRun k = fastest({o.anvilrt, "patch", archive, by_key, "-o", out, "-q"}, o.runs);
  CliRun n = fastest({o.anvilrt, "patch", archive, by_name, "-o", out, "-q"}, o.runs);
  fs::remove(out);
  if (k.wall < 0 || n.wall < 0) {
    std::printf("patch of one object: failed\n");
    return;
  }
  std::printf(
      "patch of one object of %s: by /objects/KEY %.2f s (peak RSS %.0f MiB), by /datafiles/NAME/objects/KEY "
      "%.2f s (%.0f MiB): %.2f x (target <= 1.5: %s)\n",
      name.c_str(), k.wall, k.peak_rss_kib / 1024.0, n.wall, n.peak_rss_kib / 1024.0, k.wall / n.wall,
      met(k.wall <= 1.5 * n.wall));
}

}  // namespace anvil::bench
