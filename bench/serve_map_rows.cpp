// The editor's map rows (issue 51): the census-size level file (630,686 Visuals, generated as bench.cpp
// generates it) served by `anvilrt serve` and its page driven in headless Chromium by bench/serve_map.py,
// which the page's own timing reports to (the browser is driven from Python: Selenium has no C++ client).
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>

#include "bench/forge_rows.hpp"
#include "gen/generator.hpp"

namespace anvil::bench {

void serve_map_rows(const ForgeRowOptions& o) {
  if (access("/usr/bin/chromedriver", X_OK) != 0) {
    std::printf("serve's map rows: skipped, no /usr/bin/chromedriver (Debian's chromium-driver)\n");
    return;
  }
  const std::string level = o.dir + "/serve-map.bin";
  gen::Options options;
  options.game = Game::ac2;
  options.visuals = o.visuals;
  options.seed = 1;
  if (auto record = gen::generate_file(options, level); !record.ok()) {
    std::fprintf(stderr, "anvilrt_bench: %s\n", std::string(record.status().message()).c_str());
    return;
  }
  std::fflush(stdout);
  const std::string runs = std::to_string(o.runs);
  const pid_t pid = fork();
  if (pid == 0) {  // its rows straight to the bench's standard output
    execl("/usr/bin/python3", "python3", ANVILRT_BENCH_SERVE_MAP_SCRIPT, o.anvilrt.c_str(), level.c_str(), runs.c_str(),
          static_cast<char*>(nullptr));
    _exit(127);
  }
  int status = 0;
  waitpid(pid, &status, 0);
  if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) std::printf("serve's map rows: bench/serve_map.py failed\n");
  std::filesystem::remove(level);
}

}  // namespace anvil::bench
