// reader/input_file.hpp: a mapped file whose pages may be released without changing what it reads.
#include "reader/input_file.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <string>

#include "tests/test_support.hpp"

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

TEST(InputFileRelease, BytesStayReadable) {
  test::TempDir dir;
  std::vector<u8> bytes(std::size_t{3} << 20);
  for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<u8>(i * 7 + i / 4096);
  test::write_file(dir.path("f.bin"), bytes);
  auto file = InputFile::open(dir.path("f.bin"));
  ASSERT_TRUE(file.ok());
  ASSERT_TRUE(std::equal(file->bytes().begin(), file->bytes().end(), bytes.begin()));
  long touched = rss_file_kib();
  file->release(100, 1 << 20);
  file->release(0, bytes.size());
  long released = rss_file_kib();
  ASSERT_GE(touched, 0);
  EXPECT_GE(touched - released, 2 * 1024) << "the mapped pages stay resident";
  file->release(bytes.size() - 1, 100);  // clamped
  file->release(bytes.size() + 5, 1);    // past the end: nothing
  EXPECT_TRUE(std::equal(file->bytes().begin(), file->bytes().end(), bytes.begin(), bytes.end()));
}

}  // namespace
}  // namespace anvil
