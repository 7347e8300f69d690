// The progress bar on a terminal (cli/progress_bar.hpp): nothing drawn where stderr is not a terminal,
// and the real binary under a pseudo-terminal. POSIX only: a pseudo-terminal (openpty, forkpty) has no
// Windows counterpart a test can drive (a console is not a pipe one can read back).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <pty.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <string>
#include <vector>

#include "cli/progress_bar.hpp"
#include "tests/game_folder_support.hpp"
#include "tests/test_support.hpp"

namespace anvil::cli {
namespace {

std::string written_contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string s;
  for (int c; (c = std::fgetc(f)) != EOF;) s += static_cast<char>(c);
  return s;
}

TEST(ProgressBar, NotDrawnWhenNotATerminalOrQuiet) {
  std::FILE* file = std::tmpfile();
  int pipe_fds[2];
  ASSERT_EQ(::pipe(pipe_fds), 0);
  int master = -1, slave = -1;
  ASSERT_EQ(::openpty(&master, &slave, nullptr, nullptr, nullptr), 0);
  EXPECT_FALSE(progress_wanted(false, ::fileno(file)));
  EXPECT_FALSE(progress_wanted(false, pipe_fds[1]));
  EXPECT_TRUE(progress_wanted(false, slave));
  EXPECT_FALSE(progress_wanted(true, slave));
  // A bar that is not wanted draws nothing, however long the job.
  double now = 0;
  {
    ProgressBar bar(
        "verify", false, file, [&] { return now; }, 80);
    for (int i = 0; i < 50; ++i, now += 0.5) bar.update(i, 50);
  }
  EXPECT_EQ(written_contents(file), "");
  std::fclose(file);
  for (int fd : {pipe_fds[0], pipe_fds[1], master, slave}) ::close(fd);
}

// Runs the binary with stdout and stderr on a pseudo-terminal, with `environment` ("NAME=VALUE") added to its
// own; all it printed there.
std::string run_on_terminal(const std::vector<std::string>& args, int& exit_code,
                            const std::vector<std::string>& environment = {}) {
  std::vector<std::string> storage = {ANVILRT_BINARY};
  storage.insert(storage.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& a : storage) argv.push_back(a.data());
  argv.push_back(nullptr);
  int master = -1;
  pid_t pid = ::forkpty(&master, nullptr, nullptr, nullptr);
  if (pid == 0) {
    for (const std::string& e : environment) ::putenv(const_cast<char*>(e.c_str()));
    ::execv(argv[0], argv.data());
    ::_exit(127);
  }
  std::string out;
  char buffer[4096];
  for (ssize_t n; (n = ::read(master, buffer, sizeof buffer)) > 0;) out.append(buffer, static_cast<std::size_t>(n));
  int status = 0;
  ::waitpid(pid, &status, 0);
  ::close(master);
  exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return out;
}

// A generated file of 209 MB, verified twice on one thread (one file's JSON round trips take all cores
// by default): with its JSON round trip that takes over a second on any machine we know (the fastest
// measured is 210 MB/s on one thread; far longer under the sanitizers): on a terminal it draws the bar and
// erases it before the result; with --quiet, or with stderr in a file, nothing but the result.
// gen draws one too when it runs for over a second (not assured on a fast machine): erased likewise.
TEST(ProgressBar, TheBinaryDrawsOnATerminalOnly) {
  test::TempDir dir;
  std::string file = dir.path("big.bin");
  int code = -1;
  std::string shown = run_on_terminal({"gen", "--game", "ac2", "--visuals", "300000", "-o", file}, code);
  ASSERT_EQ(code, 0) << shown;
  if (shown.find("\rgen [") != std::string::npos)
    EXPECT_NE(shown.find("\r\033[K" + file + ": ac2,"), std::string::npos) << "erased before the result: " << shown;
  else
    EXPECT_TRUE(shown.starts_with(file + ": ac2,")) << shown;

  shown = run_on_terminal({"verify", "--jobs", "1", "--game", "ac2", file, file}, code);
  ASSERT_EQ(code, 0) << shown;
  EXPECT_NE(shown.find("\rverify ["), std::string::npos) << shown;
  EXPECT_NE(shown.find(" MB/s "), std::string::npos) << shown;
  EXPECT_NE(shown.find("\r\033[K" + file + ": ac2,"), std::string::npos) << "erased before the result: " << shown;

  shown = run_on_terminal({"verify", "-q", "--jobs", "1", "--game", "ac2", file, file}, code);
  ASSERT_EQ(code, 0) << shown;
  EXPECT_TRUE(shown.starts_with(file + ": ac2,")) << shown;
  EXPECT_EQ(shown.find("verify ["), std::string::npos) << shown;

  auto r = test::run_cli({"verify", "--jobs", "1", "--game", "ac2", file, file});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
}

// `mod install` and `mod sync` draw the bar too, erased before their report; ANVILRT_PROGRESS_DELAY=0 has
// them draw it on a job shorter than a second, as a small folder's is. Without it, a job that short draws
// nothing; nor does one with stderr in a file.
TEST(ProgressBar, ModInstallAndSyncDrawOnATerminal) {
  test::TempDir dir;
  const std::string game = dir.path("game");
  test::generate_game_folder(game, "ac2", {"a1.forge", "a2.forge"}, {1, 2}, 2, 3);
  const std::string key = test::archive_keys(game + "/a1.forge").at(0).second.at(0);
  const std::string mod = dir.path("brighter.json");
  std::ofstream(mod) << "[{\"op\": \"replace\", \"path\": \"/archives/a1.forge/datafiles/DataFile_000/objects/" << key
                     << "/managed\", \"value\": 7}]";
  int code = -1;
  std::string shown = run_on_terminal({"mod", "install", game, mod}, code, {"ANVILRT_PROGRESS_DELAY=0"});
  ASSERT_EQ(code, 0) << shown;
  EXPECT_NE(shown.find("\rinstall ["), std::string::npos) << shown;
  EXPECT_NE(shown.find("\r\033[Ka1.forge: 1 data file changed"), std::string::npos)
      << "erased before the report: " << shown;
  shown = run_on_terminal({"mod", "sync", game}, code, {"ANVILRT_PROGRESS_DELAY=0"});
  ASSERT_EQ(code, 0) << shown;
  EXPECT_NE(shown.find("\rsync ["), std::string::npos) << shown;
  EXPECT_NE(shown.find("\r\033[K"), std::string::npos) << shown;
  EXPECT_NE(shown.find("uninstalled"), std::string::npos) << shown;
  // The default delay: a job of a fraction of a second draws nothing.
  shown = run_on_terminal({"mod", "install", game, mod}, code);
  ASSERT_EQ(code, 0) << shown;
  EXPECT_EQ(shown.find("install ["), std::string::npos) << shown;
  ::setenv("ANVILRT_PROGRESS_DELAY", "0", 1);
  auto r = test::run_cli({"mod", "sync", game});
  ::unsetenv("ANVILRT_PROGRESS_DELAY");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "") << "no bar where stderr is not a terminal";
}

}  // namespace
}  // namespace anvil::cli
