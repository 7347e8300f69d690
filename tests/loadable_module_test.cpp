// platform/loadable_module.hpp on the system the tests run on: the running binary's folder, a function of
// a library every system has, and the one-line error of a file that is not there.
#include "platform/loadable_module.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>

#include "platform/paths.hpp"
#include "platform/system.hpp"
#include "tests/test_support.hpp"

namespace anvil::platform {
namespace {

TEST(LoadableModule, ExecutableFolderHoldsTheTests) {
  absl::StatusOr<std::string> folder = executable_folder();
  ASSERT_TRUE(folder.ok()) << folder.status();
  // The test binary sits in the build's tests/ folder, beside the CTest file that lists it.
  EXPECT_TRUE(std::filesystem::exists(path_of(*folder) / "CTestTestfile.cmake")) << *folder;
}

TEST(LoadableModule, FindsAFunctionOfTheSystemLibrary) {
  const bool windows = this_system() == System::kWindows;
  absl::StatusOr<void*> address =
      module_symbol(windows ? "kernel32.dll" : "libc.so.6", windows ? "GetTickCount" : "getpid");
  ASSERT_TRUE(address.ok()) << address.status();
  EXPECT_NE(*address, nullptr);
  absl::StatusOr<void*> missing = module_symbol(windows ? "kernel32.dll" : "libc.so.6", "anvilrt_no_such_function");
  ASSERT_FALSE(missing.ok());
  EXPECT_NE(missing.status().message().find("anvilrt_no_such_function"), std::string::npos) << missing.status();
}

TEST(LoadableModule, AMissingFileIsOneLineNamingIt) {
  test::TempDir dir;
  const std::string file = dir.path(this_system() == System::kWindows ? "absent.dll" : "absent.so");
  absl::StatusOr<void*> address = module_symbol(file, "anything");
  ASSERT_FALSE(address.ok());
  const std::string message(address.status().message());
  EXPECT_NE(message.find("absent."), std::string::npos) << message;
  EXPECT_EQ(message.find('\n'), std::string::npos) << message;
}

}  // namespace
}  // namespace anvil::platform
