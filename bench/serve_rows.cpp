// The `anvilrt serve` rows (issue 38): on an archive of about 150 MB (the census-size level's share of
// Visuals, as diff_rows makes it), the time from starting the server to the first page answered, the
// time the search index takes, and a search over every instance, through real HTTP (cpp-httplib's client).
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

}  // namespace

void serve_rows(const ForgeRowOptions& o) {
  const u64 visuals = o.visuals * 150 / 296, datafiles = 16;
  const std::string archive = o.dir + "/serve.forge";
  const u64 per_body = std::max<u64>(1, visuals / (2 * datafiles));
  if (run_cli({o.anvilrt, "gen", "--forge", "--game", "ac2", "--datafiles", std::to_string(datafiles), "--visuals",
               std::to_string(per_body), "--seed", "1", "-o", archive})
          .wall < 0)
    return;
  const double megabytes = static_cast<double>(std::filesystem::file_size(archive)) / 1e6;
  double first_page = 1e300, indexed = 1e300, scan = 1e300, many = 1e300;
  std::size_t instances = 0, objects = 0, many_total = 0;
  for (int run = 0; run < o.runs; ++run) {
    const double t0 = now();
    Server s = start_serve(o.anvilrt, archive);
    const std::size_t colon = s.url.rfind(':'), slash = s.url.find('/', colon), equals = s.url.rfind('=');
    int port = 0;
    if (colon == std::string::npos || slash == std::string::npos || equals == std::string::npos ||
        !absl::SimpleAtoi(s.url.substr(colon + 1, slash - colon - 1), &port)) {
      std::fprintf(stderr, "anvilrt_bench: anvilrt serve printed %s\n", s.url.c_str());
      stop_serve(s);
      return;
    }
    const std::string token = s.url.substr(equals + 1);
    httplib::Client client("127.0.0.1", port);
    client.set_read_timeout(120);
    httplib::Headers token_header{{"X-Anvilrt-Token", token}};
    auto page = client.Get("/?token=" + token);
    first_page = std::min(first_page, now() - t0);
    if (!page || page->status != 200) {
      std::fprintf(stderr, "anvilrt_bench: the first page was not answered\n");
      stop_serve(s);
      return;
    }
    // The index is built in the background: its time is until /api/info says ready.
    for (;;) {
      auto info = client.Get("/api/info", token_header);
      if (info && info->body.find("\"ready\":true") != std::string::npos) {
        indexed = std::min(indexed, now() - t0);
        auto number = [&](const char* key) {
          std::size_t at = info->body.find(key);
          std::size_t n = 0;
          if (at != std::string::npos) {
            at += std::string(key).size();
            (void)absl::SimpleAtoi(info->body.substr(at, info->body.find_first_of(",}", at) - at), &n);
          }
          return n;
        };
        instances = number("\"instances\":");
        objects = number("\"objects\":");
        break;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    // A text no object holds: every object's every field compared (the longest search).
    for (int i = 0; i < 3; ++i) {
      double t = now();
      auto r = client.Get("/api/search?field=any&q=0xzz&size=50", token_header);
      if (r && r->status == 200) scan = std::min(scan, now() - t);
      t = now();
      r = client.Get("/api/search?field=class&q=MeshInstanceData&size=50", token_header);
      if (r && r->status == 200) {
        many = std::min(many, now() - t);
        std::size_t at = r->body.find("\"total\":");
        if (at != std::string::npos)
          (void)absl::SimpleAtoi(r->body.substr(at + 8, r->body.find(',', at) - at - 8), &many_total);
      }
    }
    stop_serve(s);
  }
  std::printf(
      "serve of a %.1f MB archive (gen --forge --datafiles %llu --visuals %llu --seed 1; %zu objects placing %zu "
      "instances), the fastest of %d runs:\n",
      megabytes, static_cast<unsigned long long>(datafiles), static_cast<unsigned long long>(per_body), objects,
      instances, o.runs);
  std::printf("  start to the first page answered: %.3f s (target <= 2 s)\n", first_page);
  std::printf("  start to the search index ready: %.3f s (built in the background; searches wait for it)\n", indexed);
  std::printf("  a search of every field of every object for a text none holds: %.1f ms (target <= 200 ms)\n",
              scan * 1e3);
  std::printf("  a search by class matching %zu objects (first page of 50): %.1f ms (target <= 200 ms)\n", many_total,
              many * 1e3);
  std::filesystem::remove(archive);
}

}  // namespace anvil::bench
