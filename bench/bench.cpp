// anvilrt_bench: the performance table of docs/performance.md. Generates the census-size `ac2` file of
// the notes (630,686 Visuals, through the library's generator) and measures on the same bytes, in one
// run: memcpy of the file (the memory-speed limit), verify --no-json (with --game ac2 and with --game
// auto, whose detection judges the file on windows: reader/level.hpp detect()), verify, dump, build, a
// swap_material bulk patch and a patch of 10,000 replace ops (applied, written, read back and checked, as
// `anvilrt patch` does); then verify of a folder of 8 files with --jobs 1 and --jobs 2. Each operation
// runs in a child process that maps the file as the command line does, so its peak RSS is its own;
// times are CPU time of the operation alone (the machine may be shared) and wall time. Every operation
// runs --runs times (default 3), in rounds over all of them so that a slow spell of a shared machine
// lands on every row alike; a row shows its fastest run and the highest peak RSS of its runs.
//
// With --anvilrt, verify --no-json of the file also as the binary runs it with default flags (the user's
// path: the process, its start and its detection included), `map` of it against that (issue 38), `export`
// against that and `import` against `export` (issue 51: bench/scene_rows.hpp), and the
// `.forge` rows too
// (bench/forge_rows.hpp): the level as an archive of data files,
// and, in the full bench (the census size) or with --forge-big N, a large archive (about 1 GB in full).
//
//   anvilrt_bench [--visuals N] [--dir DIR] [--anvilrt PATH] [--runs N] [--only TEXT] [--forge-big VISUALS]
//                 [--forge-only yes] [--same-only yes] [--diff-only yes] [--resize-only yes] [--put-only yes]
//                 [--serve-only yes] [--mod-only yes]
//
// --only TEXT measures only the rows whose name holds TEXT (and memcpy, the reference), e.g.
// --only "verify --no-json" for the --game auto row against the ac2 one; it leaves out the .forge rows.
// Given more than once, the rows whose name holds any of them (--only verify --only dump --only build).
// --forge-only yes measures the .forge rows alone; --same-only yes only the rows of the same objects as bare
// level files, plain data files and an archive (bench/forge_rows.hpp same_objects_rows); --diff-only yes only
// the row of diff of two archives (bench/forge_rows.hpp diff_rows); --resize-only yes only the row of a
// resizing patch against a patch in place (resize_rows); --put-only yes only the row of put of a 20 MB data
// file into a 1 GB archive (put_rows); --serve-only yes only the rows of `anvilrt serve` (serve_rows); --mod-only yes
// only the rows of `anvilrt mod` over a 1 GB game folder (mod_rows). The machine's CPU model and memcpy rate are
// printed first, as the ratios differ by machine.
#include <absl/strings/str_format.h>
#include <fcntl.h>
#include <malloc.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "bench/forge_rows.hpp"
#include "bench/scene_rows.hpp"
#include "gen/generator.hpp"
#include "patch/patch.hpp"
#include "pipeline/build.hpp"
#include "pipeline/dump.hpp"
#include "pipeline/patch_output.hpp"
#include "pipeline/verify.hpp"
#include "reader/input_file.hpp"
#include "reader/level.hpp"

namespace {

using namespace anvil;

struct Timing {
  double cpu = 0;    // seconds of CPU the operation used
  double wall = 0;   // seconds of wall time
  double bytes = 0;  // the bytes the rate is quoted for
  bool ok = false;
};

double cpu_now() {
  timespec ts{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec + ts.tv_nsec * 1e-9;
}

double wall_now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

// Runs `setup` then `op` in a child; op returns the byte count its rate is quoted for (0: failed).
struct Row {
  std::string name;
  Timing t;
  long peak_rss_kib = 0;
};

Row measure(const std::string& name, const std::function<std::function<double()>()>& setup) {
  int fds[2];
  if (pipe(fds) != 0) std::abort();
  pid_t pid = fork();
  if (pid == 0) {
    close(fds[0]);
    auto op = setup();
    double c0 = cpu_now(), w0 = wall_now();
    double bytes = op();
    Timing t{cpu_now() - c0, wall_now() - w0, bytes, bytes > 0};
    if (write(fds[1], &t, sizeof t) != sizeof t) _exit(3);
    _exit(0);
  }
  close(fds[1]);
  Row row{name, {}, 0};
  if (read(fds[0], &row.t, sizeof row.t) != sizeof row.t) row.t.ok = false;
  close(fds[0]);
  int status = 0;
  rusage usage{};
  wait4(pid, &status, 0, &usage);
  row.peak_rss_kib = usage.ru_maxrss;
  return row;
}

InputFile open_or_die(const std::string& path) {
  auto f = InputFile::open(path);
  if (!f.ok()) {
    std::fprintf(stderr, "anvilrt_bench: %s\n", std::string(f.status().message()).c_str());
    std::exit(2);
  }
  return std::move(*f);
}

// Counts what is written through a FILE* without keeping it.
std::FILE* counting_sink(std::size_t* count) {
  cookie_io_functions_t io{};
  io.write = [](void* c, const char*, size_t n) -> ssize_t {
    *static_cast<std::size_t*>(c) += n;
    return static_cast<ssize_t>(n);
  };
  return fopencookie(count, "w", io);
}

double run_cli_wall(const std::vector<std::string>& args) { return bench::run_cli(args).wall; }

}  // namespace

int main(int argc, char** argv) {
  u64 visuals = 630686;
  int runs = 3;
  std::string dir = std::filesystem::temp_directory_path() / "anvilrt-bench";
  std::string anvilrt_binary;
  std::vector<std::string> only;
  std::optional<u64> forge_big;
  bool forge_only = false, same_only = false, diff_only = false, resize_only = false, put_only = false,
       serve_only = false, mod_only = false;
  for (int i = 1; i + 1 < argc; i += 2) {
    std::string a = argv[i];
    if (a == "--visuals")
      visuals = std::stoull(argv[i + 1]);
    else if (a == "--runs")
      runs = std::max(1, std::stoi(argv[i + 1]));
    else if (a == "--dir")
      dir = argv[i + 1];
    else if (a == "--anvilrt")
      anvilrt_binary = argv[i + 1];
    else if (a == "--only")
      only.push_back(argv[i + 1]);
    else if (a == "--forge-big")
      forge_big = std::stoull(argv[i + 1]);
    else if (a == "--forge-only")
      forge_only = std::string(argv[i + 1]) == "yes";
    else if (a == "--same-only")
      same_only = std::string(argv[i + 1]) == "yes";
    else if (a == "--diff-only")
      diff_only = std::string(argv[i + 1]) == "yes";
    else if (a == "--resize-only")
      resize_only = std::string(argv[i + 1]) == "yes";
    else if (a == "--put-only")
      put_only = std::string(argv[i + 1]) == "yes";
    else if (a == "--serve-only")
      serve_only = std::string(argv[i + 1]) == "yes";
    else if (a == "--mod-only")
      mod_only = std::string(argv[i + 1]) == "yes";
  }
  std::filesystem::create_directories(dir);
  // The 1 GB archive: 2.3 x the census-size level's Visuals (its data compresses), in the full bench.
  bench::ForgeRowOptions forge{
      anvilrt_binary, dir, visuals, 64, forge_big.value_or(visuals == 630686 ? 1450000 : 0), runs};
  std::printf("%s\n", bench::machine_line().c_str());
  if (forge_only || same_only || diff_only || resize_only || put_only || serve_only || mod_only) {
    if (anvilrt_binary.empty()) {
      std::fprintf(stderr,
                   "anvilrt_bench: --forge-only, --same-only, --diff-only, --resize-only, --put-only, --serve-only or "
                   "--mod-only needs --anvilrt PATH\n");
      return 2;
    }
    if (mod_only)
      bench::mod_rows(forge);
    else if (serve_only)
      bench::serve_rows(forge);
    else if (put_only)
      bench::put_rows(forge);
    else if (resize_only)
      bench::resize_rows(forge);
    else if (diff_only)
      bench::diff_rows(forge);
    else if (same_only)
      bench::same_objects_rows(forge);
    else
      bench::forge_rows(forge);
    return 0;
  }
  const std::string census = dir + "/census.bin";
  const std::string full_json = dir + "/census.json";
  gen::Options options;
  options.game = Game::ac2;
  options.visuals = visuals;
  options.seed = 1;
  auto record = gen::generate_file(options, census);
  if (!record.ok()) {
    std::fprintf(stderr, "anvilrt_bench: %s\n", std::string(record.status().message()).c_str());
    return 2;
  }
  const double size = static_cast<double>(record->size);
  auto wanted = [&](std::string_view name) {
    return only.empty() || std::any_of(only.begin(), only.end(),
                                       [&](const std::string& o) { return name.find(o) != std::string_view::npos; });
  };
  if (wanted("build (MB/s of JSON read)")) {
    InputFile in = open_or_die(census);
    std::FILE* out = std::fopen(full_json.c_str(), "w");
    dump_json(in.bytes(), {Game::ac2, true}, out);
    std::fclose(out);
  }

  // The operations, each a name and a setup that returns the operation; measured once all are known.
  using Setup = std::function<std::function<double()>()>;
  std::vector<std::pair<std::string, Setup>> ops;
  ops.emplace_back("memcpy", [&] {
    // Setup: the file mapped and faulted in, the target allocated and written once.
    auto in = std::make_shared<InputFile>(open_or_die(census));
    auto copy = std::make_shared<std::vector<u8>>(in->bytes().size());
    std::memcpy(copy->data(), in->bytes().data(), copy->size());
    return [in, copy, size]() -> double {
      for (int i = 0; i < 5; ++i) std::memcpy(copy->data(), in->bytes().data(), copy->size());
      return (*copy)[copy->size() / 2] == in->bytes()[copy->size() / 2] ? size * 5 : 0;
    };
  });
  auto verify_row = [&](const char* name, bool json) {
    ops.emplace_back(name, [&, json] {
      return [&, json]() -> double {
        InputFile in = open_or_die(census);
        return verify_bytes(in.bytes(), Game::ac2, json).identical() ? size : 0;
      };
    });
  };
  verify_row("verify --no-json", false);
  // The same with `--game auto`: the dialect detected first, as the command line does.
  ops.emplace_back("verify --no-json --game auto", [&] {
    return [&]() -> double {
      InputFile in = open_or_die(census);
      return verify_bytes(in.bytes(), detect_game(in.bytes()), false).identical() ? size : 0;
    };
  });
  verify_row("verify", true);
  ops.emplace_back("dump (MB/s of JSON written)", [&] {
    return [&]() -> double {
      InputFile in = open_or_die(census);
      std::size_t written = 0;
      std::FILE* sink = counting_sink(&written);
      bool ok = dump_json(in.bytes(), {Game::ac2, false}, sink);
      std::fclose(sink);
      return ok ? static_cast<double>(written) : 0;
    };
  });
  ops.emplace_back("build (MB/s of JSON read)", [&] {
    auto text = std::make_shared<InputFile>(open_or_die(full_json));
    return [text]() -> double {
      auto b = text->bytes();
      // As `anvilrt build` does: the dump's pages leave memory behind the reading.
      auto built = build_from_dump(std::string_view(reinterpret_cast<const char*>(b.data()), b.size()),
                                   [&](std::size_t passed) { text->release(0, passed); });
      return built.ok() ? static_cast<double>(b.size()) : 0;
    };
  });
  // A replacement Material id of the file, and 10,000 Visual keys.
  std::string swap, replaces;
  {
    InputFile in = open_or_die(census);
    Level level = carve_level(in.bytes(), Game::ac2);
    std::size_t n = 0;
    replaces = "[";
    for (const Piece& p : level.pieces) {
      if (!p.is_object()) continue;
      if (swap.empty()) {
        Object o = parse_piece(level, p);
        auto& v = std::get<ac2::Visual>(o);
        if (v.instance)
          if (auto* m = std::get_if<ac2::MeshInstanceData>(&v.instance->body); m && !m->materials.empty())
            swap = absl::StrFormat(R"([{"op":"swap_material","from":"0x%016x","to":"0x00000000deadbeef"}])",
                                   m->materials[0].replacement.value);
      }
      if (n < 10000 && p.offset % 3 == 0) {
        replaces += absl::StrFormat(R"(%s{"op":"replace","path":"/objects/%s/active","value":1})", n ? "," : "",
                                    object_key(p, Game::ac2));
        ++n;
      }
    }
    replaces += "]";
    if (swap.empty() || n < 10000) std::fprintf(stderr, "anvilrt_bench: the file has too few objects\n");
  }
  // The level carved above is gone, but malloc keeps its pages, and every child forked from here would
  // count them in its peak RSS: give them back first.
  malloc_trim(0);
  // What `anvilrt patch FILE PATCH -o OUT` does: apply, then the streamed write, read-back and check of
  // pipeline/patch_output.hpp (into DIR/patched.bin, removed afterwards), so the peak RSS is the command's.
  const std::string patched = dir + "/patched.bin";
  auto patch_row = [&](const char* name, const std::string& patch) {
    ops.emplace_back(name, [&, patch] {
      return [&, patch]() -> double {
        InputFile in = open_or_die(census);
        // As cli/cmd_patch.cpp does: the input's pages released as the carve and bulk operations pass.
        Level level = carve_mapped(in, Game::ac2);
        patch::PatchOptions options;
        options.release_input = [&in](std::size_t offset, std::size_t length) { in.release(offset, length); };
        auto outcome = patch::apply_patch_text(level, patch, options);
        if (outcome.error) return 0;
        absl::Status written = patch::write_patched(level, outcome.result, patched, &in);
        if (!written.ok()) std::fprintf(stderr, "anvilrt_bench: %s\n", std::string(written.message()).c_str());
        return written.ok() ? size : 0;
      };
    });
  };
  patch_row("patch: swap_material", swap);
  patch_row("patch: 10,000 replace ops", replaces);

  // --only: memcpy (the reference) and the rows asked for.
  std::erase_if(ops, [&](const auto& op) { return op.first != "memcpy" && !wanted(op.first); });

  // Rounds over all operations; each row keeps its fastest run (memcpy: by wall time, it is the limit;
  // the others by CPU time) and the highest peak RSS of its runs.
  std::vector<Row> rows;
  for (int round = 0; round < runs; ++round) {
    for (std::size_t i = 0; i < ops.size(); ++i) {
      Row run = measure(ops[i].first, ops[i].second);
      std::filesystem::remove(patched);
      if (round == 0) {
        rows.push_back(run);
        continue;
      }
      Row& best = rows[i];
      long rss = std::max(best.peak_rss_kib, run.peak_rss_kib);
      bool faster = i == 0 ? run.t.wall < best.t.wall : run.t.cpu < best.t.cpu;
      if (!run.t.ok || (best.t.ok && faster)) best = run;
      best.peak_rss_kib = rss;
    }
  }

  double memcpy_rate = rows[0].t.bytes / 1e6 / rows[0].t.wall;
  std::printf("census file: %s Visuals, %.1f MB (%s); the fastest of %d runs of each operation\n\n",
              std::to_string(record->visuals).c_str(), size / 1e6, census.c_str(), runs);
  std::printf("| operation | MB/s (CPU time) | MB/s (wall) | vs memcpy | peak RSS MiB |\n|---|---|---|---|---|\n");
  for (const Row& r : rows) {
    if (!r.t.ok) {
      std::printf("| %s | failed | | | |\n", r.name.c_str());
      continue;
    }
    double rate = r.t.bytes / 1e6 / (r.name == "memcpy" ? r.t.wall : r.t.cpu);
    double wall_rate = r.t.bytes / 1e6 / r.t.wall;
    std::printf("| %s | %.0f | %.0f | 1/%.1f | %.0f |\n", r.name.c_str(), rate, wall_rate, memcpy_rate / rate,
                r.peak_rss_kib / 1024.0);
  }
  auto row = [&](std::string_view name) -> const Row* {
    for (const Row& r : rows)
      if (r.name == name && r.t.ok) return &r;
    return nullptr;
  };
  if (const Row* patch = row("patch: 10,000 replace ops"), *verify = row("verify"); patch && verify)
    std::printf("\npatch of 10,000 replace ops: %.2f s CPU = %.2f x verify (%.2f s)\n", patch->t.cpu,
                patch->t.cpu / verify->t.cpu, verify->t.cpu);
  if (const Row* ac2 = row("verify --no-json"), *detected = row("verify --no-json --game auto"); ac2 && detected)
    std::printf("verify --no-json: --game auto takes %.3f x the CPU time of --game ac2\n",
                detected->t.cpu / ac2->t.cpu);
  std::printf("file size %.0f MiB: verify RSS limit %.0f MiB, patch RSS limit %.0f MiB\n", size / 1048576,
              size / 1048576 + 64, 2 * size / 1048576);
  // The rows above time the library in this process on one thread; a user runs the binary (--game auto,
  // all cores: one file is carved in parts, reader/split_carve.hpp), which also starts, maps the file and
  // finds what it holds. The issue-25 targets are judged on its wall time, what the user waits; the CPU
  // time is what it costs.
  const unsigned cores = std::max(1u, std::thread::hardware_concurrency());
  if (!anvilrt_binary.empty() && wanted("verify --no-json")) {
    bench::CliRun cli = bench::fastest({anvilrt_binary, "verify", "--no-json", "-q", census}, runs);
    if (cli.wall > 0)
      std::printf(
          "anvilrt verify --no-json FILE (the binary, default flags, %u cores): %.3f s wall = %.0f MB/s, 1/%.1f of "
          "memcpy (issue-25 target: 1/8); %.3f s CPU = %.0f MB/s by CPU time, 1/%.1f; peak RSS %.0f MiB\n",
          cores, cli.wall, size / 1e6 / cli.wall, memcpy_rate / (size / 1e6 / cli.wall), cli.cpu, size / 1e6 / cli.cpu,
          memcpy_rate / (size / 1e6 / cli.cpu), cli.peak_rss_kib / 1024.0);
  }
  // Issue 38's target: `map` of the file (its SVG, written atomically) in at most twice the time of `verify
  // --no-json` of it, both the binary as a user runs it; measured in alternation so that a slow spell of a
  // shared machine lands on both.
  if (!anvilrt_binary.empty() && wanted("map")) {
    const std::string svg = dir + "/census-map.svg";
    bench::CliRun map, verify;
    for (int run = 0; run < runs; ++run) {
      bench::CliRun m = bench::run_cli({anvilrt_binary, "map", "-q", census, "-o", svg});
      bench::CliRun v = bench::run_cli({anvilrt_binary, "verify", "--no-json", "-q", census});
      if (m.wall > 0 && (map.wall < 0 || m.wall < map.wall)) map = m;
      if (v.wall > 0 && (verify.wall < 0 || v.wall < verify.wall)) verify = v;
    }
    std::error_code ignored;
    const double svg_mb = static_cast<double>(std::filesystem::file_size(svg, ignored)) / 1e6;
    if (map.wall > 0 && verify.wall > 0)
      std::printf(
          "anvilrt map FILE -o SVG (the binary, %u cores, fastest of %d): %.3f s wall, %.3f s CPU, peak RSS %.0f MiB, "
          "SVG %.1f MB; verify --no-json %.3f s wall, %.3f s CPU: map = %.2f x verify by wall time, %.2f x by CPU "
          "time (issue-38 target: 2)\n",
          cores, runs, map.wall, map.cpu, map.peak_rss_kib / 1024.0, svg_mb, verify.wall, verify.cpu,
          map.wall / verify.wall, map.cpu / verify.cpu);
    std::filesystem::remove(svg, ignored);
  }
  // Issue 51's targets: `export` of the file against `verify --no-json` of it, `import` of its scene with one
  // node moved against `export` (bench/scene_rows.hpp).
  if (!anvilrt_binary.empty() && (wanted("export") || wanted("import")))
    bench::scene_rows(anvilrt_binary, census, dir, runs, cores);
  if (!anvilrt_binary.empty() && wanted("verify")) {
    bench::CliRun cli = bench::fastest({anvilrt_binary, "verify", "-q", census}, runs);
    if (cli.wall > 0)
      std::printf(
          "anvilrt verify FILE (the binary, default flags, %u cores): %.3f s wall = %.0f MB/s (issue-25 target: 250); "
          "%.3f s CPU = %.0f MB/s by CPU time; peak RSS %.0f MiB\n",
          cores, cli.wall, size / 1e6 / cli.wall, cli.cpu, size / 1e6 / cli.cpu, cli.peak_rss_kib / 1024.0);
  }

  if (!anvilrt_binary.empty() && only.empty()) {
    std::string folder = dir + "/eight";
    std::filesystem::create_directories(folder);
    for (int i = 0; i < 8; ++i) {
      gen::Options o = options;
      o.visuals = visuals / 8;
      o.seed = 100 + i;
      (void)gen::generate_file(o, folder + "/part" + std::to_string(i) + ".bin");
    }
    // The fastest of --runs runs each, alternating: a shared machine's other work lands on either side.
    double one = 1e300, two = 1e300;
    for (int run = 0; run < runs; ++run) {
      one = std::min(one, run_cli_wall({anvilrt_binary, "verify", "--quiet", "--game", "ac2", "--jobs", "1", folder}));
      two = std::min(two, run_cli_wall({anvilrt_binary, "verify", "--quiet", "--game", "ac2", "--jobs", "2", folder}));
    }
    std::printf("verify of a folder of 8 files (fastest of %d runs each): --jobs 1 %.2f s, --jobs 2 %.2f s: %.2f x\n",
                runs, one, two, one / two);
    bench::forge_rows(forge);
    if (forge.big_visuals != 0) bench::mod_rows(forge);  // with the other 1 GB rows
  }
  return 0;
}
