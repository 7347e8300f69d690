// The `anvilrt serve` rows (issue 38), through real HTTP (cpp-httplib's client): on an archive of about
// 150 MB (the census-size level's share of Visuals, as diff_rows makes it), the time from starting the
// server to the first page answered and the time the search index takes; on an archive of the same form
// placing at least 600,000 instances, the searches (the search target is over that many).
// Then the editor's map on the census-size level file (bench/serve_map_rows.cpp).
#include <absl/strings/numbers.h>
#include <fcntl.h>
#include <httplib.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>

#include "bench/forge_rows.hpp"

namespace anvil::bench {
namespace {

double now() { return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count(); }

struct Server {
  pid_t pid = -1;
  std::string url;
};

// `anvilrt serve PATH` started, its first line (the URL) read from a pipe.
Server start_serve(const std::string& anvilrt, const std::string& path) {
  int fds[2];
  Server s;
  if (pipe(fds) != 0) return s;
  s.pid = fork();
  if (s.pid == 0) {
    dup2(fds[1], 1);
    int devnull = ::open("/dev/null", O_WRONLY);
    dup2(devnull, 2);
    close(fds[0]);
    execl(anvilrt.c_str(), anvilrt.c_str(), "serve", path.c_str(), "-q", static_cast<char*>(nullptr));
    _exit(127);
  }
  close(fds[1]);
  char c;
  while (read(fds[0], &c, 1) == 1 && c != '\n') s.url += c;
  close(fds[0]);
  return s;
}

void stop_serve(const Server& s) {
  if (s.pid <= 0) return;
  kill(s.pid, SIGTERM);
  int status = 0;
  waitpid(s.pid, &status, 0);
}

struct Measured {
  double first_page = 1e300, indexed = 1e300, scan = 1e300, many = 1e300;  // the fastest of the runs, s
  std::size_t instances = 0, objects = 0, many_total = 0;
  bool ok = false;
};

// `anvilrt serve ARCHIVE` started `runs` times and asked through HTTP: the first page, the index, and
// three of each search per run.
Measured measure(const ForgeRowOptions& o, const std::string& archive) {
  Measured m;
  for (int run = 0; run < o.runs; ++run) {
    const double t0 = now();
    Server s = start_serve(o.anvilrt, archive);
    const std::size_t colon = s.url.rfind(':'), slash = s.url.find('/', colon), equals = s.url.rfind('=');
    int port = 0;
    if (colon == std::string::npos || slash == std::string::npos || equals == std::string::npos ||
        !absl::SimpleAtoi(s.url.substr(colon + 1, slash - colon - 1), &port)) {
      std::fprintf(stderr, "anvilrt_bench: anvilrt serve printed %s\n", s.url.c_str());
      stop_serve(s);
      return m;
    }
    const std::string token = s.url.substr(equals + 1);
    httplib::Client client("127.0.0.1", port);
    client.set_read_timeout(120);
    httplib::Headers token_header{{"X-Anvilrt-Token", token}};
    auto page = client.Get("/?token=" + token);
    m.first_page = std::min(m.first_page, now() - t0);
    if (!page || page->status != 200) {
      std::fprintf(stderr, "anvilrt_bench: the first page was not answered\n");
      stop_serve(s);
      return m;
    }
    // The index is built in the background: its time is until /api/info says ready.
    for (;;) {
      auto info = client.Get("/api/info", token_header);
      if (info && info->body.find("\"ready\":true") != std::string::npos) {
        m.indexed = std::min(m.indexed, now() - t0);
        auto number = [&](const char* key) {
          std::size_t at = info->body.find(key);
          std::size_t n = 0;
          if (at != std::string::npos) {
            at += std::string(key).size();
            (void)absl::SimpleAtoi(info->body.substr(at, info->body.find_first_of(",}", at) - at), &n);
          }
          return n;
        };
        m.instances = number("\"instances\":");
        m.objects = number("\"objects\":");
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    // A text no object holds: every object's every field compared (the longest search).
    for (int i = 0; i < 3; ++i) {
      double t = now();
      auto r = client.Get("/api/search?field=any&q=0xzz&size=50", token_header);
      if (r && r->status == 200) m.scan = std::min(m.scan, now() - t);
      t = now();
      r = client.Get("/api/search?field=class&q=MeshInstanceData&size=50", token_header);
      if (r && r->status == 200) {
        m.many = std::min(m.many, now() - t);
        std::size_t at = r->body.find("\"total\":");
        if (at != std::string::npos)
          (void)absl::SimpleAtoi(r->body.substr(at + 8, r->body.find(',', at) - at - 8), &m.many_total);
      }
    }
    stop_serve(s);
  }
  m.ok = true;
  return m;
}

// `gen --forge` of 16 data files, `per_body` Visuals in each entry body; false when it fails.
bool generate(const ForgeRowOptions& o, const std::string& archive, u64 per_body) {
  return run_cli({o.anvilrt, "gen", "--forge", "--game", "ac2", "--datafiles", "16", "--visuals",
                  std::to_string(per_body), "--seed", "1", "-o", archive})
             .wall >= 0;
}

// The search target is over this many placed instances.
constexpr std::size_t kSearchInstances = 600000;

}  // namespace

void serve_rows(const ForgeRowOptions& o) {
  serve_map_rows(o);
  // The first page's target is on an archive of about 150 MB: the census-size level's share of Visuals.
  const u64 datafiles = 16, per_body = std::max<u64>(1, o.visuals * 150 / 296 / (2 * datafiles));
  const std::string archive = o.dir + "/serve.forge";
  if (!generate(o, archive, per_body)) return;
  const double megabytes = static_cast<double>(std::filesystem::file_size(archive)) / 1e6;
  const Measured m = measure(o, archive);
  std::filesystem::remove(archive);
  if (!m.ok) return;
  std::printf(
      "serve of a %.1f MB archive (gen --forge --datafiles %llu --visuals %llu --seed 1; %zu objects placing %zu "
      "instances), the fastest of %d runs:\n",
      megabytes, static_cast<unsigned long long>(datafiles), static_cast<unsigned long long>(per_body), m.objects,
      m.instances, o.runs);
  std::printf("  start to the first page answered: %.3f s (target <= 2 s)\n", m.first_page);
  std::printf("  start to the search index ready: %.3f s (built in the background; searches wait for it)\n", m.indexed);
  std::printf("  a search of every field of every object for a text none holds: %.1f ms\n", m.scan * 1e3);
  std::printf("  a search by class matching %zu objects (first page of 50): %.1f ms\n", m.many_total, m.many * 1e3);

  // The search's target is over 600,000 instances: an archive of the same form grown until it places that
  // many (the generator's instances per Visual known from the first), measured again.
  if (m.instances == 0) return;
  const u64 big_per_body = per_body * kSearchInstances / m.instances * 105 / 100 + 1;
  const std::string big = o.dir + "/serve-search.forge";
  if (!generate(o, big, big_per_body)) return;
  const double big_megabytes = static_cast<double>(std::filesystem::file_size(big)) / 1e6;
  const Measured b = measure(o, big);
  std::filesystem::remove(big);
  if (!b.ok) return;
  std::printf(
      "serve of a %.1f MB archive (gen --forge --datafiles %llu --visuals %llu --seed 1; %zu objects placing %zu "
      "instances%s), the fastest of %d runs:\n",
      big_megabytes, static_cast<unsigned long long>(datafiles), static_cast<unsigned long long>(big_per_body),
      b.objects, b.instances, b.instances >= kSearchInstances ? "" : ": FEWER than the target's 600,000", o.runs);
  std::printf("  start to the search index ready: %.3f s (built in the background; searches wait for it)\n", b.indexed);
  std::printf("  a search of every field of every object for a text none holds: %.1f ms (target <= 200 ms)\n",
              b.scan * 1e3);
  std::printf("  a search by class matching %zu objects (first page of 50): %.1f ms (target <= 200 ms)\n", b.many_total,
              b.many * 1e3);
}

}  // namespace anvil::bench
