// The streamed output of `anvilrt patch` (pipeline/patch_output.hpp) to a pipe named by its descriptor
// path. POSIX only: a pipe has no path on Windows (/proc/self/fd is Linux's).
#include <fcntl.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <string>
#include <variant>

#include "patch/patch.hpp"
#include "pipeline/patch_output.hpp"
#include "reader/level.hpp"
#include "tests/test_support.hpp"

namespace anvil {
namespace {

// A target that is not a regular file (here a pipe, named by its descriptor path as /dev/stdout would be):
// the bytes are checked in memory before any goes out, so a failed check writes nothing to it, and a
// passed one writes the patched file.
TEST(PatchOutputToAPipe, CheckedBeforeWritten) {
  std::vector<u8> bytes = test::read_file(test::corpus("ac2/lod_selector_slots.bin"));
  Level level = carve_level(bytes, Game::ac2);
  auto out =
      patch::apply_patch_text(level, R"([{"op":"replace","path":"/objects/0x00000000000004d2/active","value":3}])");
  ASSERT_FALSE(out.error) << out.error->message();
  int fds[2];
  ASSERT_EQ(::pipe2(fds, O_NONBLOCK), 0);  // the file is far below a pipe's 64 KiB
  std::string target = "/proc/self/fd/" + std::to_string(fds[1]);
  auto pending = [&] {
    std::string got;
    char buffer[4096];
    for (ssize_t n; (n = ::read(fds[0], buffer, sizeof buffer)) > 0;) got.append(buffer, static_cast<std::size_t>(n));
    return got;
  };

  patch::PatchResult wrong = out.result;
  std::get<ac2::Visual>(wrong.edited_objects[0]).active = 4;  // the overlay holds 3
  absl::Status s = patch::write_patched(level, wrong, target);
  EXPECT_EQ(s.code(), absl::StatusCode::kDataLoss) << s.message();
  EXPECT_EQ(pending(), "");

  s = patch::write_patched(level, out.result, target);
  ASSERT_TRUE(s.ok()) << s.message();
  std::vector<u8> expected = patch::patched_bytes(level, out.result);
  EXPECT_EQ(pending(), std::string(expected.begin(), expected.end()));
  EXPECT_EQ(expected[14 + 12 + 1], 3);
  ::close(fds[0]);
  ::close(fds[1]);
}

}  // namespace
}  // namespace anvil
