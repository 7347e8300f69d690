// "Write a copy" against a link swapped in after serve/output_name.cpp's check (issue 51): the race made
// deterministic by putting the link at the name before the write itself, which is the state the race
// leaves. The name must end a regular file holding the copy, and the link's target stay untouched: the
// output replaces the name (platform::OutputOptions::at_name), never writes through it. POSIX alone:
// on Windows a link at the name is refused (platform/windows/replace_file.cpp).
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/forge/archive.hpp"
#include "platform/replace_file.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/input_file.hpp"
#include "reader/level_source.hpp"
#include "serve/session.hpp"
#include "tests/serve_input_support.hpp"
#include "tests/test_support.hpp"

namespace anvil::serve_write_race {
namespace {

namespace fs = std::filesystem;

const std::vector<u8> kOutside = {'k', 'e', 'e', 'p'};

// An input `anvilrt serve` opened: the mapped file and, for an archive, its tables.

bool is_regular_not_link(const fs::path& path) {
  struct stat st {};
  return ::lstat(path.c_str(), &st) == 0 && S_ISREG(st.st_mode);
}

TEST(ServeWriteRace, AtNameReplacesALinkAFifoAndAFileNeverWritingThrough) {
  test::TempDir dir;
  const fs::path outside = dir.path("outside.bin"), folder = dir.path("out");
  fs::create_directory(folder);
  test::write_file(outside.string(), kOutside);
  const std::vector<u8> bytes = {1, 2, 3};
  const fs::path link = folder / "link.bin", dangling = folder / "dangling.bin", fifo = folder / "fifo.bin";
  fs::create_symlink(outside, link);
  fs::create_symlink(dir.path("created_outside.bin"), dangling);
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  for (const fs::path& name : {link, dangling, fifo}) {
    platform::AtomicFile file;
    ASSERT_TRUE(file.open(name.string(), {.at_name = true}).ok()) << name;
    ASSERT_EQ(std::fwrite(bytes.data(), 1, bytes.size(), file.stream()), bytes.size());
    ASSERT_TRUE(file.commit().ok()) << name;
    EXPECT_TRUE(is_regular_not_link(name)) << name;
    EXPECT_EQ(test::read_file(name.string()), bytes) << name;
  }
  EXPECT_EQ(test::read_file(outside.string()), kOutside);
  EXPECT_FALSE(fs::exists(dir.path("created_outside.bin")));
  // A folder at the name is refused, as without at_name.
  platform::AtomicFile folder_name;
  EXPECT_FALSE(folder_name.open(folder.string(), {.at_name = true}).ok());
}

TEST(ServeWriteRace, ACopyOntoALinkPutThereAfterTheCheckReplacesTheLink) {
  for (const char* relative : {"forge/ac2_five_forms.forge", "ac2/lod_selector_slots.bin"}) {
    test::TempDir dir;
    const fs::path outside = dir.path("outside.bin"), fresh = dir.path("fresh.bin"), name = dir.path("copy.bin");
    test::write_file(outside.string(), kOutside);
    auto opened = test::open_serve_input(test::corpus(relative));
    serve::Session session(opened->input);
    ASSERT_TRUE(session.status().ok());
    ASSERT_TRUE(session.write_copy("[]", fresh.string()).ok()) << relative;
    fs::create_symlink(outside, name);  // the swap, after output_target found nothing there
    ASSERT_TRUE(session.write_copy("[]", name.string()).ok()) << relative;
    EXPECT_TRUE(is_regular_not_link(name)) << relative;
    EXPECT_EQ(test::read_file(name.string()), test::read_file(fresh.string())) << relative;
    EXPECT_EQ(test::read_file(outside.string()), kOutside) << relative;
  }
}

}  // namespace
}  // namespace anvil::serve_write_race
