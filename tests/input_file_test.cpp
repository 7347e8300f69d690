// reader/input_file.hpp: a mapped file whose pages may be released without changing what it reads.
#include "reader/input_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "reader/level.hpp"
#include "tests/test_support.hpp"
#include "writer/encode.hpp"

namespace anvil {
namespace {

// This process's resident pages of mapped files, in KiB (RssFile of /proc/self/status).
long rss_file_kib() {
  std::ifstream status("/proc/self/status");
  std::string line;
  while (std::getline(status, line))
    if (line.starts_with("RssFile:")) return std::stol(line.substr(8));
  return -1;
}

// 3 MiB of varied bytes (`step` varies them between tests), written to `dir`/f.bin.
std::vector<u8> write_pattern(const test::TempDir& dir, u8 step) {
  std::vector<u8> bytes(std::size_t{3} << 20);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<u8>(i * step + i / 4096);
  test::write_file(dir.path("f.bin"), bytes);
  return bytes;
}

// Whether `file` reads `bytes`, whole.
bool reads(const InputFile& file, const std::vector<u8>& bytes) {
  return std::equal(file.bytes().begin(), file.bytes().end(), bytes.begin(), bytes.end());
}

TEST(InputFileRelease, BytesStayReadable) {
  test::TempDir dir;
  const std::vector<u8> bytes = write_pattern(dir, 7);
  auto file = InputFile::open(dir.path("f.bin"));
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE(reads(*file, bytes));
  long touched = rss_file_kib();
  file->release(100, 1 << 20);
  file->release(0, bytes.size());
  long released = rss_file_kib();
  // The resident pages are measured on Linux only (/proc); elsewhere the bytes must still read the same.
  if (!test::on_windows()) {
    ASSERT_GE(touched, 0);
    EXPECT_GE(touched - released, 2 * 1024) << "the mapped pages stay resident";
  }
  file->release(bytes.size() - 1, 100);  // clamped
  file->release(bytes.size() + 5, 1);    // past the end: nothing
  EXPECT_TRUE(reads(*file, bytes));
}

// forget_cached (an archive about to be replaced): the whole mapping leaves the resident set, and every
// byte still reads the same, from the disk if the system dropped the cached pages.
TEST(InputFileRelease, ForgetCachedKeepsTheBytes) {
  test::TempDir dir;
  const std::vector<u8> bytes = write_pattern(dir, 13);
  auto file = InputFile::open(dir.path("f.bin"));
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE(reads(*file, bytes));
  const long touched = rss_file_kib();
  file->forget_cached();
  if (!test::on_windows()) {
    EXPECT_GE(touched - rss_file_kib(), 2 * 1024) << "the mapped pages stay resident";
  }
  EXPECT_TRUE(reads(*file, bytes));
}

// carve_mapped carves exactly as carve_level does, releasing the pages it passes (a 20 MiB file with
// objects on both sides of the release steps).
TEST(InputFileRelease, CarveMappedCarvesLikeCarveLevel) {
  test::TempDir dir;
  std::vector<u8> visuals = test::read_file(test::corpus("ac2/back_to_back.bin"));
  std::vector<u8> bytes;
  for (int i = 0; i < 20; ++i) {
    bytes.insert(bytes.end(), visuals.begin(), visuals.end());
    bytes.resize(bytes.size() + (std::size_t{1} << 20) - 7, 0x00);
  }
  test::write_file(dir.path("f.bin"), bytes);
  auto file = InputFile::open(dir.path("f.bin"));
  ASSERT_TRUE(file.ok());
  Level mapped = carve_mapped(*file, Game::ac2);
  Level plain = carve_level(bytes, Game::ac2);
  ASSERT_EQ(mapped.pieces.size(), plain.pieces.size());
  EXPECT_EQ(mapped.object_count(), 100u);
  for (std::size_t i = 0; i < plain.pieces.size(); ++i) {
    EXPECT_EQ(mapped.pieces[i].offset, plain.pieces[i].offset);
    EXPECT_EQ(mapped.pieces[i].length, plain.pieces[i].length);
    EXPECT_EQ(mapped.pieces[i].kind, plain.pieces[i].kind);
    EXPECT_EQ(object_key(mapped.pieces[i], Game::ac2), object_key(plain.pieces[i], Game::ac2));
  }
  EXPECT_TRUE(write_level(mapped, parse_objects(mapped)) == bytes);  // every object parses after the release
}

}  // namespace
}  // namespace anvil
