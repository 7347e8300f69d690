// Shared test helpers: corpus access, the one round-trip assertion every fixture goes through, a byte
// builder that may lie about counts and tags, and a runner for the `anvilrt` executable.
#pragma once

#include <gtest/gtest.h>
#include <sys/types.h>

#include <cstring>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "model/object.hpp"

namespace anvil::test {

std::vector<u8> read_file(const std::string& path);
void write_file(const std::string& path, std::span<const u8> bytes);
std::string read_text(const std::string& path);

// A path inside corpus/.
std::string corpus(const std::string& relative);
// Every corpus .bin of a dialect folder ("ac2", "sws").
std::vector<std::string> corpus_files(const std::string& folder);

// Asserts, on bytes: read -> write == bytes (every object re-encoded from its parsed fields),
// read -> `dump --full` -> build == bytes, and verify_bytes identical with and without JSON.
void ExpectRoundTrip(std::span<const u8> bytes, Game game);

// Little-endian bytes for fixtures, well-formed or not.
class ByteBuilder {
 public:
  ByteBuilder& u8(std::uint8_t v) { return raw(&v, 1); }
  ByteBuilder& u32(std::uint32_t v) { return raw(&v, 4); }
  ByteBuilder& u64(std::uint64_t v) { return raw(&v, 8); }
  ByteBuilder& f32(float v) { return raw(&v, 4); }
  ByteBuilder& fill(std::size_t n, std::uint8_t v) {
    bytes_.insert(bytes_.end(), n, v);
    return *this;
  }
  ByteBuilder& bytes(std::span<const std::uint8_t> b) {
    bytes_.insert(bytes_.end(), b.begin(), b.end());
    return *this;
  }
  ByteBuilder& raw(const void* p, std::size_t n) {
    auto* b = static_cast<const std::uint8_t*>(p);
    bytes_.insert(bytes_.end(), b, b + n);
    return *this;
  }
  std::size_t size() const { return bytes_.size(); }
  const std::vector<std::uint8_t>& get() const { return bytes_; }

 private:
  std::vector<std::uint8_t> bytes_;
};

// A fresh folder under the test temp dir, removed at the end of the test.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  std::string path(const std::string& name) const { return (dir_ / name).string(); }

 private:
  std::filesystem::path dir_;
};

struct CliResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
// Runs the built `anvilrt` with `args` (no shell), capturing its output.
CliResult run_cli(const std::vector<std::string>& args);

// Starts `args` (args[0] the program) with its standard output on /dev/null and SIGINT, SIGTERM and
// SIGHUP at their defaults and unblocked, even under nohup, for the tests that signal a running
// command; the pid, or -1 when it cannot start. The caller waits for it.
pid_t spawn_with_default_signals(std::vector<std::string> args);
// Whether process `pid` blocks signal `sig` now (its SigBlk in /proc).
bool blocks_signal(pid_t pid, int sig);

}  // namespace anvil::test
