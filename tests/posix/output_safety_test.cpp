// Output that never harms and input from anywhere, through the real binary: devices, FIFOs and
// sockets written as they are, folders refused, symbolic links followed, modes kept, read-only files
// refused for --in-place unless --force, `-o -` and `-` / /dev/stdin / <(…) inputs, -o equal to the
// input, and real SIGINT/SIGTERM/SIGHUP while a temporary exists. Every file lives in a fresh folder;
// the machine's own /dev entries are never written (device nodes are made in the folder with mknod).
#include <absl/strings/str_replace.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "tests/posix/signal_support.hpp"
#include "tests/test_support.hpp"

namespace anvil::output_safety {
namespace {

namespace fs = std::filesystem;

const std::string kSlotsLevel = test::corpus("ac2/lod_selector_slots.bin");
const std::string kActive = R"([{"op":"replace","path":"/objects/0x00000000000004d2/active","value":9}])";

// kSlotsLevel with kActive applied, by hand: the Visual at 0x0e, its 12-byte header, then `managed`, `active`.
std::vector<u8> patched_slots() {
  std::vector<u8> bytes = test::read_file(kSlotsLevel);
  EXPECT_EQ(bytes.at(14 + 12 + 1), 1);
  bytes.at(14 + 12 + 1) = 9;
  return bytes;
}

std::string shell_quote(const std::string& s) {
  std::string out = "'";
  for (char c : s) out += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return out + "'";
}

// Runs `command` with /bin/sh (or bash), returning its standard output and filling `status` with the
// wait status.
std::string shell(const std::string& command, int& status, const char* sh = "sh") {
  std::string line = std::string(sh) + " -c " + shell_quote(command);
  std::FILE* pipe = ::popen(line.c_str(), "r");
  std::string out;
  if (pipe == nullptr) return out;
  char buffer[65536];
  for (std::size_t n; (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  status = ::pclose(pipe);
  return out;
}

std::string binary() { return shell_quote(ANVILRT_BINARY); }

std::string text_of(const std::vector<u8>& bytes) { return {bytes.begin(), bytes.end()}; }

class OutputSafety : public ::testing::Test {
 protected:
  std::string path(const std::string& name) const { return dir_.path(name); }
  std::string write(const std::string& name, const std::string& text) {
    test::write_file(path(name), {reinterpret_cast<const u8*>(text.data()), text.size()});
    return path(name);
  }
  std::set<std::string> entries() const {
    std::set<std::string> names;
    for (auto& e : fs::directory_iterator(dir_.path(""))) names.insert(e.path().filename().string());
    return names;
  }
  // The four commands that write a file, each writing to `out`, with the inputs they need in the folder.
  std::vector<std::vector<std::string>> writers(const std::string& out) {
    if (!fs::exists(path("full.json"))) {
      auto r = test::run_cli({"dump", kSlotsLevel, "--full", "--game", "ac2", "-o", path("full.json")});
      EXPECT_EQ(r.exit_code, 0) << r.err;
      write("active.json", kActive);
    }
    return {{"dump", kSlotsLevel, "--game", "ac2", "-o", out},
            {"build", path("full.json"), "-o", out},
            {"patch", kSlotsLevel, path("active.json"), "--game", "ac2", "-o", out},
            {"gen", "--game", "sws", "--visuals", "30", "--seed", "7", "-o", out}};
  }
  // What each of writers() writes, from a run to a regular file.
  std::vector<std::vector<u8>> expected_outputs() {
    std::vector<std::vector<u8>> expected;
    for (auto& args : writers(path("expected.out"))) {
      auto r = test::run_cli(args);
      EXPECT_EQ(r.exit_code, 0) << args[0] << ": " << r.err;
      expected.push_back(test::read_file(path("expected.out")));
    }
    fs::remove(path("expected.out"));
    return expected;
  }

  test::TempDir dir_;
};

// Reads everything a FIFO or an accepted connection gives until its writer closes.
std::string drain(int fd) {
  std::string out;
  char buffer[65536];
  for (ssize_t n; (n = ::read(fd, buffer, sizeof buffer)) > 0;) out.append(buffer, static_cast<std::size_t>(n));
  return out;
}

TEST_F(OutputSafety, ADeviceIsWrittenNotReplaced) {
  std::string null = path("null");
  if (::mknod(null.c_str(), S_IFCHR | 0666, ::makedev(1, 3)) != 0) GTEST_SKIP() << "mknod: " << std::strerror(errno);
  auto cmds = writers(null);
  std::set<std::string> before = entries();
  for (auto& args : cmds) {
    auto r = test::run_cli(args);
    EXPECT_EQ(r.exit_code, 0) << args[0] << ": " << r.err;
    struct stat st {};
    ASSERT_EQ(::lstat(null.c_str(), &st), 0);
    EXPECT_TRUE(S_ISCHR(st.st_mode)) << args[0] << " replaced the device";
    EXPECT_EQ(st.st_rdev, ::makedev(1, 3));
    EXPECT_EQ(entries(), before) << args[0];
  }
  // --in-place on a device is refused: it replaces a regular file only.
  auto r = test::run_cli({"patch", null, path("active.json"), "--in-place", "--game", "ac2"});
  EXPECT_EQ(r.exit_code, 2);
}

TEST_F(OutputSafety, AFifoIsWrittenNotReplaced) {
  std::string fifo = path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0) << std::strerror(errno);
  auto expected = expected_outputs();
  auto cmds = writers(fifo);
  std::set<std::string> before = entries();
  for (std::size_t i = 0; i < cmds.size(); ++i) {
    std::string got;
    std::thread reader([&] {
      int fd = ::open(fifo.c_str(), O_RDONLY);
      got = drain(fd);
      ::close(fd);
    });
    auto r = test::run_cli(cmds[i]);
    reader.join();
    EXPECT_EQ(r.exit_code, 0) << cmds[i][0] << ": " << r.err;
    EXPECT_EQ(got, text_of(expected[i])) << cmds[i][0];
    struct stat st {};
    ASSERT_EQ(::lstat(fifo.c_str(), &st), 0);
    EXPECT_TRUE(S_ISFIFO(st.st_mode)) << cmds[i][0] << " replaced the FIFO";
    EXPECT_EQ(entries(), before) << cmds[i][0];
  }
}

TEST_F(OutputSafety, ASocketIsConnectedTo) {
  std::string socket_path = path("sock");
  int listener = ::socket(AF_UNIX, SOCK_STREAM, 0);
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(socket_path.size(), sizeof address.sun_path);
  std::strcpy(address.sun_path, socket_path.c_str());
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&address), sizeof address), 0) << std::strerror(errno);
  ASSERT_EQ(::listen(listener, 1), 0);
  auto expected = expected_outputs();
  std::string got;
  std::thread reader([&] {
    int fd = ::accept(listener, nullptr, nullptr);
    got = drain(fd);
    ::close(fd);
  });
  auto r = test::run_cli(writers(socket_path)[2]);  // patch
  reader.join();
  ::close(listener);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(got, text_of(expected[2]));
  struct stat st {};
  ASSERT_EQ(::lstat(socket_path.c_str(), &st), 0);
  EXPECT_TRUE(S_ISSOCK(st.st_mode));
}

TEST_F(OutputSafety, AFolderIsRefused) {
  fs::create_directory(path("sub"));
  for (auto& args : writers(path("sub"))) {
    std::set<std::string> before = entries();
    auto r = test::run_cli(args);
    EXPECT_EQ(r.exit_code, 2) << args[0];
    EXPECT_EQ(r.err, "anvilrt: " + path("sub") + ": Is a directory\n") << args[0];
    EXPECT_TRUE(fs::is_empty(path("sub")));
    EXPECT_EQ(entries(), before) << args[0];
  }
}

TEST_F(OutputSafety, SymbolicLinksAreFollowedAndStayLinks) {
  auto expected = expected_outputs()[2];  // patch
  std::string patch = path("active.json");
  // A chain: link2 -> link1 (relative, same folder) -> ../real/level.bin (relative to link1's folder, not
  // to the working folder).
  fs::create_directories(path("real"));
  fs::create_directories(path("links"));
  test::write_file(path("real/level.bin"), std::vector<u8>{1, 2, 3});
  fs::create_symlink("../real/level.bin", path("links/link1"));
  fs::create_symlink("link1", path("links/link2"));
  auto r = test::run_cli({"patch", kSlotsLevel, patch, "--game", "ac2", "-o", path("links/link2")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(path("links/link2")));
  EXPECT_TRUE(fs::is_symlink(path("links/link1")));
  EXPECT_EQ(fs::read_symlink(path("links/link1")), "../real/level.bin");
  EXPECT_EQ(test::read_file(path("real/level.bin")), expected);
  // Nothing beside the links or the file but themselves.
  EXPECT_EQ(std::distance(fs::directory_iterator(path("links")), fs::directory_iterator()), 2);
  EXPECT_EQ(std::distance(fs::directory_iterator(path("real")), fs::directory_iterator()), 1);

  // --in-place through a link replaces the file it names.
  r = test::run_cli({"patch", path("links/link2"),
                     write("five.json", R"([{"op":"replace","path":"/objects/0x00000000000004d2/active","value":5}])"),
                     "--game", "ac2", "--in-place"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(path("links/link1")));
  expected[14 + 12 + 1] = 5;
  EXPECT_EQ(test::read_file(path("real/level.bin")), expected);

  // A dangling link: the file it names is created.
  fs::create_symlink("made.bin", path("dangling"));
  r = test::run_cli({"patch", kSlotsLevel, patch, "--game", "ac2", "-o", path("dangling")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::is_symlink(path("dangling")));
  EXPECT_EQ(test::read_file(path("made.bin")), patched_slots());

  // A loop is an error, not a hang.
  fs::create_symlink("loop_b", path("loop_a"));
  fs::create_symlink("loop_a", path("loop_b"));
  r = test::run_cli({"patch", kSlotsLevel, patch, "--game", "ac2", "-o", path("loop_a")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "anvilrt: " + path("loop_a") + ": Too many levels of symbolic links\n");
}

TEST_F(OutputSafety, ModeOwnerAndGroupAreKept) {
  std::string patch = write("active.json", kActive);
  // --in-place on a 0600 file.
  std::string level = path("level.bin");
  test::write_file(level, test::read_file(kSlotsLevel));
  ASSERT_EQ(::chmod(level.c_str(), 0600), 0);
  auto r = test::run_cli({"patch", level, patch, "--game", "ac2", "--in-place"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  struct stat st {};
  ASSERT_EQ(::stat(level.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0600u);
  EXPECT_EQ(test::read_file(level), patched_slots());

  // -o over an existing 0640 file of another owner and group (set when the user may: root).
  std::string out = path("out.bin");
  test::write_file(out, std::vector<u8>{0});
  ASSERT_EQ(::chmod(out.c_str(), 0640), 0);
  bool chowned = ::chown(out.c_str(), 4321, 1234) == 0;
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  uid_t uid = st.st_uid;
  gid_t gid = st.st_gid;
  r = test::run_cli({"patch", kSlotsLevel, patch, "--game", "ac2", "-o", out});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(::stat(out.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0640u);
  if (chowned) {
    EXPECT_EQ(st.st_uid, uid);
    EXPECT_EQ(st.st_gid, gid);
  }
  EXPECT_EQ(test::read_file(out), patched_slots());

  // A new file: 0666 less the umask, as open(2) would make it.
  mode_t mask = ::umask(0);
  ::umask(mask);
  r = test::run_cli({"patch", kSlotsLevel, patch, "--game", "ac2", "-o", path("new.bin")});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  ASSERT_EQ(::stat(path("new.bin").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0666u & ~mask);
}

TEST_F(OutputSafety, ReadOnlyFileNeedsForceInPlace) {
  std::string patch = write("active.json", kActive);
  std::string level = path("level.bin");
  std::vector<u8> original = test::read_file(kSlotsLevel);
  test::write_file(level, original);
  ASSERT_EQ(::chmod(level.c_str(), 0444), 0);
  auto r = test::run_cli({"patch", level, patch, "--game", "ac2", "--in-place"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "anvilrt: " + level + ": the file is read-only (--force replaces it all the same)\n");
  EXPECT_EQ(test::read_file(level), original);
  EXPECT_EQ(entries(), (std::set<std::string>{"active.json", "level.bin"}));

  r = test::run_cli({"patch", level, patch, "--game", "ac2", "-o", path("x.bin"), "--force"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "anvilrt: --force only goes with --in-place (or -o naming FILE itself)\n");

  r = test::run_cli({"patch", level, patch, "--game", "ac2", "--in-place", "--force"});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(level), patched_slots());
  struct stat st {};
  ASSERT_EQ(::stat(level.c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 07777, 0444u);
  EXPECT_EQ(entries(), (std::set<std::string>{"active.json", "level.bin"}));
}

TEST_F(OutputSafety, DashWritesStandardOutput) {
  auto expected = expected_outputs();
  auto cmds = writers("-");
  std::set<std::string> before = entries();
  for (std::size_t i = 0; i < cmds.size(); ++i) {
    // Standard output a regular file (run_cli), then a pipe.
    auto r = test::run_cli(cmds[i]);
    EXPECT_EQ(r.exit_code, 0) << cmds[i][0] << ": " << r.err;
    EXPECT_EQ(r.out, text_of(expected[i])) << cmds[i][0];
    std::string line = binary();
    for (auto& a : cmds[i]) line += " " + shell_quote(a);
    int status = -1;
    std::string piped = shell(line + " 2>/dev/null | cat", status);
    EXPECT_EQ(status, 0) << line;
    EXPECT_EQ(piped, text_of(expected[i])) << cmds[i][0];
    EXPECT_EQ(entries(), before) << cmds[i][0];
  }
  // gen's summary goes to stderr when the bytes go to stdout.
  auto r = test::run_cli(cmds[3]);
  EXPECT_NE(r.err.find("30 Visuals"), std::string::npos) << r.err;
  // /dev/stdout is the descriptor the shell opened, not a path to replace: `>>` appends to what the file
  // held, and a pipe (whose /proc link reads "pipe:[…]") is written.
  std::string line = binary();
  for (auto& a : cmds[2]) line += " " + shell_quote(a == "-" ? "/dev/stdout" : a);
  write("appended", "head");
  int status = -1;
  shell(line + " >> " + shell_quote(path("appended")), status);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(test::read_text(path("appended")), "head" + text_of(expected[2]));
  EXPECT_EQ(shell(line + " | cat", status), text_of(expected[2]));
  EXPECT_EQ(status, 0);
}

// An endless stream (a /dev/zero made here with mknod, `yes |` on standard input) is read up to the
// limit and refused in one line naming it; nothing is written.
TEST_F(OutputSafety, AnEndlessStreamIsRefusedAtTheLimit) {
  const std::string limit = "ANVILRT_STREAM_LIMIT=1048576 ";
  const std::string refusal =
      ": not a regular file, so read into memory, and longer than the limit of 1048576 bytes "
      "(ANVILRT_STREAM_LIMIT; by default half of this machine's memory): give a regular file, which is mapped";
  int status = -1;
  std::string out =
      shell("yes | " + limit + binary() + " dump - --game ac2 -o " + shell_quote(path("out.json")) + " 2>&1", status);
  EXPECT_EQ(out, "anvilrt: -" + refusal + "\n");
  EXPECT_EQ(WEXITSTATUS(status), 2);
  EXPECT_EQ(entries(), std::set<std::string>{});

  std::string zero = path("zero");
  if (::mknod(zero.c_str(), S_IFCHR | 0666, ::makedev(1, 5)) != 0) GTEST_SKIP() << "mknod: " << std::strerror(errno);
  out = shell(limit + binary() + " verify " + shell_quote(zero) + " --game ac2 2>&1", status);
  EXPECT_TRUE(out.starts_with("anvilrt: " + zero + refusal + "\n")) << out;
  EXPECT_EQ(WEXITSTATUS(status), 2) << out;
  // Within the limit a stream reads as usual: 1 MiB of zeros carves nothing, a warning.
  out = shell("head -c 1048576 " + shell_quote(zero) + " | " + limit + binary() + " stats - --game ac2 2>&1", status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << out;
}

TEST_F(OutputSafety, InputFromStandardInputAPipeOrAFifo) {
  std::string patch = write("active.json", kActive);
  auto dumped = test::run_cli({"dump", kSlotsLevel, "--game", "ac2"});
  ASSERT_EQ(dumped.exit_code, 0) << dumped.err;
  std::string cat = "cat " + shell_quote(kSlotsLevel) + " | ";
  int status = -1;
  // dump of -, /dev/stdin and a process substitution, each a pipe.
  EXPECT_EQ(shell(cat + binary() + " dump - --game ac2", status), dumped.out);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(shell(cat + binary() + " dump /dev/stdin --game ac2", status), dumped.out);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(shell(binary() + " dump <(cat " + shell_quote(kSlotsLevel) + ") --game ac2", status, "bash"), dumped.out);
  EXPECT_EQ(status, 0);
  // verify and stats of -.
  std::string verified = shell(cat + binary() + " verify - --game ac2", status);
  EXPECT_EQ(status, 0);
  EXPECT_TRUE(verified.starts_with("-: ac2, 807 bytes,")) << verified;
  EXPECT_NE(verified.find("identical\nverified 1 file: 1 identical"), std::string::npos) << verified;
  auto stats = test::run_cli({"stats", kSlotsLevel, "--game", "ac2", "--json"});
  std::string piped_stats = shell(cat + binary() + " stats - --game ac2 --json", status);
  EXPECT_EQ(status, 0);
  std::string expected_stats = stats.out;
  for (std::size_t at; (at = expected_stats.find("\"" + kSlotsLevel + "\"")) != std::string::npos;)
    expected_stats.replace(at, kSlotsLevel.size() + 2, "\"-\"");
  EXPECT_EQ(piped_stats, expected_stats);
  EXPECT_EQ(shell(cat + binary() + " verify - - --game ac2 2>&1", status),
            "anvilrt: standard input (-) is given twice\n" +
                absl::StrReplaceAll(verified, {{"0 missing, 0 unreadable", "0 missing, 1 unreadable"}}));
  EXPECT_EQ(WEXITSTATUS(status), 2);

  // patch: the level file from -, the patch from -, and the whole pipeline level | patch | dump.
  shell(cat + binary() + " patch - " + shell_quote(patch) + " --game ac2 -o " + shell_quote(path("a.bin")), status);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(test::read_file(path("a.bin")), patched_slots());
  shell("cat " + shell_quote(patch) + " | " + binary() + " patch " + shell_quote(kSlotsLevel) + " - --game ac2 -o " +
            shell_quote(path("b.bin")),
        status);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(test::read_file(path("b.bin")), patched_slots());
  auto dumped_patched = test::run_cli({"dump", path("b.bin"), "--game", "ac2"});
  EXPECT_EQ(
      shell(cat + binary() + " patch - " + shell_quote(patch) + " --game ac2 -o - | " + binary() + " dump - --game ac2",
            status),
      dumped_patched.out);
  EXPECT_EQ(status, 0);
  auto r = test::run_cli({"patch", "-", "-", "-o", path("c.bin")});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "anvilrt: FILE and PATCH cannot both be standard input (-)\n");
  r = test::run_cli({"patch", "-", patch, "--in-place"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "anvilrt: --in-place replaces FILE, and standard input (-) is not a file: give -o OUT\n");
  r = test::run_cli({"diff", "-", "-"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "anvilrt: A and B cannot both be standard input (-)\n");

  // build of a --full dump from -.
  auto full = test::run_cli({"dump", kSlotsLevel, "--full", "--game", "ac2", "-o", path("full.json")});
  ASSERT_EQ(full.exit_code, 0) << full.err;
  shell("cat " + shell_quote(path("full.json")) + " | " + binary() + " build - -o " + shell_quote(path("d.bin")),
        status);
  EXPECT_EQ(status, 0);
  EXPECT_EQ(test::read_file(path("d.bin")), test::read_file(kSlotsLevel));

  // A named pipe as the level file.
  std::string fifo = path("fifo");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::thread writer([&] {
    std::vector<u8> bytes = test::read_file(kSlotsLevel);
    int fd = ::open(fifo.c_str(), O_WRONLY);
    EXPECT_EQ(::write(fd, bytes.data(), bytes.size()), static_cast<ssize_t>(bytes.size()));
    ::close(fd);
  });
  r = test::run_cli({"dump", fifo, "--game", "ac2"});
  writer.join();
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.out, dumped.out);
}

// -o naming the input: the input stays mapped from the file it was, the output replaces it at the end.
TEST_F(OutputSafety, OutputOverTheInput) {
  std::string patch = write("active.json", kActive);
  std::string level = path("level.bin");
  test::write_file(level, test::read_file(kSlotsLevel));
  auto r = test::run_cli({"patch", level, patch, "--game", "ac2", "-o", level});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(level), patched_slots());

  auto expected_json = test::run_cli({"dump", level, "--full", "--game", "ac2"});
  r = test::run_cli({"dump", level, "--full", "--game", "ac2", "-o", level});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_text(level), expected_json.out);

  r = test::run_cli({"build", level, "-o", level});
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(level), patched_slots());
  EXPECT_EQ(entries(), (std::set<std::string>{"active.json", "level.bin"}));
}

// A real signal while `gen` writes a large file: the temporary goes and the process dies of the signal
// (a shell reports 128 + N). Not timed: the child is stopped (SIGSTOP) to look at the folder, and the
// signal is sent only while a temporary exists and the child does not block the signal (it blocks it
// for the instants of creating and renaming the temporary); SIGCONT then delivers it before the child
// runs another instruction of its own.
class SignalDuringWrite : public OutputSafety, public ::testing::WithParamInterface<int> {};

TEST_P(SignalDuringWrite, RemovesTheTemporary) {
  const int sig = GetParam();
  std::vector<std::string> args = {ANVILRT_BINARY, "gen",    "--game", "ac2", "--visuals",
                                   "400000",       "--seed", "5",      "-o",  path("big.bin")};
  const pid_t pid = test::spawn_with_default_signals(args);
  ASSERT_GT(pid, 0);

  int status = 0;
  bool sent = false;
  while (!sent) {
    ::kill(pid, SIGSTOP);
    ASSERT_EQ(::waitpid(pid, &status, WUNTRACED), pid);
    ASSERT_TRUE(WIFSTOPPED(status)) << "gen ended before a temporary was seen: " << status;
    std::set<std::string> names = entries();
    bool temporary = names.size() == 1 && names.begin()->starts_with(".big.bin.anvilrt-tmp-");
    if (temporary && !test::blocks_signal(pid, sig)) {
      ::kill(pid, sig);
      sent = true;
    }
    ::kill(pid, SIGCONT);
    if (!sent) std::this_thread::yield();
  }
  ASSERT_EQ(::waitpid(pid, &status, 0), pid);
  EXPECT_TRUE(WIFSIGNALED(status)) << status;
  EXPECT_EQ(WTERMSIG(status), sig);
  EXPECT_TRUE(entries().empty()) << *entries().begin();
}

INSTANTIATE_TEST_SUITE_P(Signals, SignalDuringWrite, ::testing::Values(SIGINT, SIGTERM, SIGHUP),
                         [](const ::testing::TestParamInfo<int>& info) {
                           return std::string(sigabbrev_np(info.param));
                         });

}  // namespace
}  // namespace anvil::output_safety
