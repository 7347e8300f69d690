// `anvilrt serve`'s HTTP server as a module (serve/http_module.hpp): the binary runs every other command
// without it, and `serve` without it says so in one line instead of starting.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "tests/test_support.hpp"

namespace anvil::test {
namespace {

// The binary copied alone into a fresh folder.
struct Alone {
  TempDir dir;
  std::string binary = dir.path(std::filesystem::path(ANVILRT_BINARY).filename().string());
  Alone() { std::filesystem::copy_file(ANVILRT_BINARY, binary); }
  CliResult run(const std::vector<std::string>& args) const { return run_binary(binary, args); }
};

TEST(ServeModule, OnlyServeNeedsIt) {
  if (std::string(ANVILRT_HTTP_MODULE_PATH).empty()) GTEST_SKIP() << "this build links the HTTP server in";
  ASSERT_TRUE(std::filesystem::exists(ANVILRT_HTTP_MODULE_PATH)) << ANVILRT_HTTP_MODULE_PATH;
  Alone alone;
  const std::string archive = corpus("forge/ac2_five_forms.forge");
  const CliResult ls = alone.run({"ls", archive});
  EXPECT_EQ(ls.exit_code, 0) << ls.err;
  EXPECT_NE(ls.out.find("DataFile_000"), std::string::npos) << ls.out;

  const CliResult serve = alone.run({"serve", archive});
  EXPECT_EQ(serve.exit_code, 2);
  EXPECT_EQ(serve.out, "");
  EXPECT_NE(serve.err.find("cannot load the HTTP server"), std::string::npos) << serve.err;
  EXPECT_NE(serve.err.find(std::filesystem::path(ANVILRT_HTTP_MODULE_PATH).filename().string()), std::string::npos)
      << serve.err;
  EXPECT_EQ(std::count(serve.err.begin(), serve.err.end(), '\n'), 1) << serve.err;
}

}  // namespace
}  // namespace anvil::test
