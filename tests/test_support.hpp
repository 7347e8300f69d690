// Shared test helpers: corpus access, the one round-trip assertion every fixture goes through, a byte
// builder that may lie about counts and tags, and a runner for the `anvilrt` executable.
#pragma once

#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cstring>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "model/object.hpp"
#include "platform/paths.hpp"

namespace anvil::test {

std::vector<u8> read_file(const std::string& path);
// Writes `bytes` to `path`, making its folder first when it has none.
void write_file(const std::string& path, std::span<const u8> bytes);
std::string read_text(const std::string& path);
// `text` parsed as JSON; a parse error fails the test, showing the text's start.
rapidjson::Document parse_json(const std::string& text);

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
  // DIR/name in the system's spelling (a\b on Windows for "a/b"), as anvilrt prints the paths it finds.
  std::string path(const std::string& name) const {
    return platform::utf8_of((dir_ / platform::path_of(name)).make_preferred());
  }

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
// The same for the program `binary` (a copy of anvilrt elsewhere).
CliResult run_binary(const std::string& binary, const std::vector<std::string>& args);

// Whether the tests run on Windows (the platform layer says: platform/system.hpp).
bool on_windows();

}  // namespace anvil::test

// Skips a test that cannot mean anything on Windows, saying why (a device node, a FIFO, a POSIX mode):
// the test is still built there, and reported as skipped with its reason. Tests that only POSIX can build
// live in tests/posix/ instead.
#define SKIP_ON_WINDOWS(reason)                                \
  do {                                                         \
    if (::anvil::test::on_windows()) GTEST_SKIP() << (reason); \
  } while (false)
