// The progress bar (cli/progress_bar.hpp): its line and when it draws (a fake clock). That it draws
// nothing where stderr is not a terminal, and through the real binary under a pseudo-terminal:
// tests/posix/progress_terminal_test.cpp.
#include "cli/progress_bar.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "tests/test_support.hpp"

namespace anvil::cli {
namespace {

std::string contents(std::FILE* f) {
  std::fflush(f);
  std::rewind(f);
  std::string s;
  for (int c; (c = std::fgetc(f)) != EOF;) s += static_cast<char>(c);
  return s;
}

TEST(ProgressBar, LineShowsBytesDoneRateAndTimeLeft) {
  // 123.4 MB of 270 MB in 2 s: 61.7 MB/s, 146.6 MB left: 2.4 s, shown rounded up. The bar takes the
  // columns left but one (21 of 80 here), 9 of them filled (45.7 %).
  EXPECT_EQ(format_progress("verify", 123'400'000, 270'000'000, 2.0, 80),
            "verify [#########............]  45%  123.4 MB of 270.0 MB  61.7 MB/s  0:03 left");
  EXPECT_EQ(format_progress("verify", 123'400'000, 270'000'000, 2.0, 80).size(), 79u);
  EXPECT_EQ(format_progress("gen", 0, 1000, 0.0, 80).find("gen ["), 0u);
  EXPECT_NE(format_progress("gen", 0, 1000, 0.0, 80).find("0 B of 1.0 kB  0 B/s  --:-- left"), std::string::npos);
  EXPECT_NE(format_progress("x", 5'000'000'000, 5'000'000'000, 4000, 120).find(" 100%  5.00 GB of 5.00 GB"),
            std::string::npos);
  EXPECT_NE(format_progress("x", 1'000'000, 4'000'000'000, 1, 120).find("1:06:39 left"), std::string::npos);
  // A narrow terminal: no bar, and never longer than the width.
  std::string narrow = format_progress("verify", 1, 2, 1, 40);
  EXPECT_EQ(narrow.size(), 40u);
  EXPECT_EQ(narrow.find('['), std::string::npos);
}

TEST(ProgressBar, DrawsAfterOneSecondAtMostTenTimesASecondAndErases) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  double now = 100;
  {
    ProgressBar bar(
        "stats", true, out, [&] { return now; }, 81);
    for (int i = 0; i < 10; ++i, now += 0.09) bar.update(i, 100);  // the first 0.9 s: nothing
    EXPECT_EQ(contents(out), "");
    now = 101.0;
    bar.update(10, 100);  // drawn
    now = 101.05;
    bar.update(11, 100);  // too soon
    now = 101.15;
    bar.update(12, 100);  // drawn
    std::string s = contents(out);
    EXPECT_EQ(s, "\r" + format_progress("stats", 10, 100, 1.0, 80) + "\033[K\r" +
                     format_progress("stats", 12, 100, 1.15, 80) + "\033[K");
  }
  std::string s = contents(out);
  EXPECT_TRUE(s.ends_with("\r\033[K")) << "erased at the end";
  std::fclose(out);
}

}  // namespace
}  // namespace anvil::cli
