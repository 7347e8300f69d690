// "Write a copy" against a link swapped in after serve/output_name.cpp's check (issue 51): the race made
// deterministic by putting the link at the name before the write itself, which is the state the race
// leaves. The name must end a regular file holding the copy, and the link's target stay untouched: the
// output replaces the name (platform::OutputOptions::at_name), never writes through it. POSIX alone:
// on Windows a link at the name is refused (platform/windows/replace_file.cpp).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "model/forge/archive.hpp"
#include "pipeline/game_folder.hpp"
#include "platform/folder_at_name.hpp"
#include "platform/replace_file.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/input_file.hpp"
#include "reader/level_source.hpp"
#include "serve/output_name.hpp"
#include "serve/session.hpp"
#include "tests/game_folder_support.hpp"
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

// A game folder's copy is a new folder (as `patch DIR -o OUTDIR` writes it): a link to a folder put at its
// name after output_target's check is refused and nothing is written through it; then the last step
// alone, platform::put_folder_at, against a link put at the name after every check of the copy's own.
TEST(ServeWriteRace, AFolderCopyOntoALinkPutThereAfterTheCheckIsRefused) {
  test::TempDir dir;
  const std::string game = dir.path("game");
  test::generate_game_folder(game, "ac2", {"A.forge", "B.forge"}, {1, 2});
  auto listed = folder::open_game_folder(game);
  ASSERT_TRUE(listed.ok()) << listed.status();
  serve::ServeInput input;
  input.path = game;
  input.folder = &*listed;
  serve::Session session(input);
  ASSERT_TRUE(session.status().ok()) << session.status();
  const fs::path outside = dir.path("outside"), name = dir.path("copy");
  fs::create_directory(outside);
  auto target = serve::output_target("copy", dir.path("."), game, false, true);
  ASSERT_TRUE(target.ok()) << target.status();
  fs::create_directory_symlink(outside, name);  // the swap, after output_target found nothing there
  const absl::Status refused = session.write_copy("[]", *target);
  EXPECT_FALSE(refused.ok());
  EXPECT_THAT(std::string(refused.message()), ::testing::HasSubstr("is a link"));
  EXPECT_TRUE(fs::is_empty(outside));
  EXPECT_TRUE(fs::is_symlink(fs::symlink_status(name)));
  // The name free again: the copy is a folder of both archives, and no stage is left beside it.
  fs::remove(name);
  ASSERT_TRUE(session.write_copy("[]", *target).ok());
  EXPECT_TRUE(fs::is_directory(fs::symlink_status(name)));
  EXPECT_EQ(test::snapshot_folder(name.string()), test::snapshot_folder(game));
  for (const auto& entry : fs::directory_iterator(dir.path(".")))
    EXPECT_EQ(entry.path().filename().string().find(".anvilrt-copy-"), std::string::npos) << entry.path();
  // The rename that puts a made folder at its name: a link there is refused and its folder untouched; a
  // file there is refused; an empty folder there is replaced.
  const fs::path made = dir.path("made"), late = dir.path("late"), file = dir.path("file"), empty = dir.path("empty");
  fs::create_directory(made);
  test::write_file((made / "f").string(), kOutside);
  fs::create_directory_symlink(outside, late);
  test::write_file(file.string(), kOutside);
  fs::create_directory(empty);
  EXPECT_TRUE(absl::IsFailedPrecondition(platform::put_folder_at(made.string(), late.string())));
  EXPECT_TRUE(absl::IsFailedPrecondition(platform::put_folder_at(made.string(), file.string())));
  EXPECT_TRUE(fs::is_empty(outside));
  EXPECT_EQ(test::read_file(file.string()), kOutside);
  ASSERT_TRUE(platform::put_folder_at(made.string(), empty.string()).ok());
  EXPECT_EQ(test::read_file((empty / "f").string()), kOutside);
  EXPECT_FALSE(fs::exists(made));
}

}  // namespace
}  // namespace anvil::serve_write_race
