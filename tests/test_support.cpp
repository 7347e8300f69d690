#include "tests/test_support.hpp"

#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <csignal>
#include <fstream>
#include <sstream>

#include "pipeline/build.hpp"
#include "pipeline/dump.hpp"
#include "pipeline/read_back.hpp"
#include "pipeline/verify.hpp"
#include "reader/level.hpp"
#include "writer/encode.hpp"

extern char** environ;

namespace anvil::test {

std::vector<u8> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in.good()) << "cannot open " << path;
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

void write_file(const std::string& path, std::span<const u8> bytes) {
  std::ofstream out(path, std::ios::binary);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::string read_text(const std::string& path) {
  auto bytes = read_file(path);
  return {bytes.begin(), bytes.end()};
}

std::string corpus(const std::string& relative) { return std::string(ANVILRT_CORPUS) + "/" + relative; }

std::vector<std::string> corpus_files(const std::string& folder) {
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(corpus(folder)))
    if (entry.path().extension() == ".bin") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

void ExpectRoundTrip(std::span<const u8> bytes, Game game) {
  std::vector<u8> want(bytes.begin(), bytes.end());
  Level level = carve_level(bytes, game);
  std::vector<Object> objects = parse_objects(level);
  EXPECT_EQ(write_level(level, objects), want) << "bytes -> model -> bytes";

  std::string json = dump_json(bytes, {game, true});
  auto built = build_from_dump(json);
  ASSERT_TRUE(built.ok()) << built.status();
  EXPECT_EQ(*built, want) << "bytes -> JSON -> bytes";
  auto failure = read_back(*built, expect_unchanged(level));
  EXPECT_FALSE(failure) << "bytes -> JSON -> bytes: " << failure->message();

  for (bool with_json : {false, true}) {
    VerifyReport report = verify_bytes(bytes, game, with_json);
    EXPECT_TRUE(report.identical()) << report.difference;
    EXPECT_EQ(report.objects, objects.size());
  }
}

TempDir::TempDir() {
  static std::atomic<int> counter{0};
  dir_ = std::filesystem::temp_directory_path() /
         ("anvilrt-test-" + std::to_string(::getpid()) + "-" + std::to_string(counter++));
  std::filesystem::create_directories(dir_);
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(dir_, ec);
}

pid_t spawn_with_default_signals(std::vector<std::string> args) {
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t defaults, none;
  sigemptyset(&defaults);
  sigemptyset(&none);
  for (int s : {SIGINT, SIGTERM, SIGHUP}) sigaddset(&defaults, s);
  posix_spawnattr_setsigdefault(&attr, &defaults);  // not ignored even under nohup
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGDEF | POSIX_SPAWN_SETSIGMASK);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0);
  pid_t pid = 0;
  const bool started = posix_spawn(&pid, argv[0], &actions, &attr, argv.data(), environ) == 0;
  posix_spawn_file_actions_destroy(&actions);
  posix_spawnattr_destroy(&attr);
  return started ? pid : -1;
}

bool blocks_signal(pid_t pid, int sig) {
  std::ifstream status("/proc/" + std::to_string(pid) + "/status");
  std::string line;
  while (std::getline(status, line))
    if (line.starts_with("SigBlk:")) return (std::stoull(line.substr(7), nullptr, 16) >> (sig - 1)) & 1;
  return false;
}

CliResult run_cli(const std::vector<std::string>& args) {
  TempDir dir;
  std::string out = dir.path("stdout"), err = dir.path("stderr");
  std::vector<std::string> argv_storage = {ANVILRT_BINARY};
  argv_storage.insert(argv_storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : argv_storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, 1, out.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, 2, err.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  pid_t pid = 0;
  CliResult result;
  if (posix_spawn(&pid, argv[0], &actions, nullptr, argv.data(), environ) == 0) {
    int status = 0;
    waitpid(pid, &status, 0);
    result.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
  }
  posix_spawn_file_actions_destroy(&actions);
  result.out = read_text(out);
  result.err = read_text(err);
  return result;
}

}  // namespace anvil::test
