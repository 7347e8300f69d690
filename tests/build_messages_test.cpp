// `anvilrt build` on edited dumps: each refusal is one line that names the JSON pointer, quotes the value
// as the user wrote it, names a wrong type by its type, an array of the wrong length by its length, and a
// syntax error by line and column.
#include <gtest/gtest.h>

#include <filesystem>

#include "tests/test_support.hpp"

namespace anvil {
namespace {

class BuildMessages : public ::testing::Test {
 protected:
  void SetUp() override {
    auto r = test::run_cli({"dump", test::corpus("ac2/direct_mesh.bin"), "--full", "--game", "ac2"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    dump_ = r.out;
  }
  // Builds the dump with `from` replaced by `to` (which must occur once); the one stderr line after the
  // path, and no output file.
  std::string refused(const std::string& from, const std::string& to) {
    std::string text = dump_;
    std::size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    EXPECT_EQ(text.find(from, at + 1), std::string::npos) << from;
    if (at == std::string::npos) return "";
    text.replace(at, from.size(), to);
    return refused_text(text);
  }
  std::string refused_text(const std::string& text) {
    std::string path = dir_.path("dump" + std::to_string(count_) + ".json");
    std::string out = dir_.path("out" + std::to_string(count_++) + ".bin");
    test::write_file(path, {reinterpret_cast<const u8*>(text.data()), text.size()});
    auto r = test::run_cli({"build", path, "-o", out});
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
    std::string prefix = "anvilrt: " + path + ": ";
    EXPECT_EQ(r.err.rfind(prefix, 0), 0u) << r.err;
    EXPECT_EQ(r.err.back(), '\n');
    return r.err.substr(prefix.size(), r.err.size() - prefix.size() - 1);
  }

  std::string dump_;
  test::TempDir dir_;
  int count_ = 0;
};

const std::string kObj = "/objects/0x00000000000004d2";

TEST_F(BuildMessages, ValuesAsWritten) {
  EXPECT_EQ(refused("\"active\":1,", "\"active\":300,"), kObj + "/active: must be an integer 0..255 (found 300)");
  EXPECT_EQ(refused("\"active\":1,", "\"active\":300.0,"), kObj + "/active: must be an integer 0..255 (found 300.0)");
  EXPECT_EQ(refused("\"active\":1,", "\"active\":-2,"), kObj + "/active: must be an integer 0..255 (found -2)");
  EXPECT_EQ(refused("[1,0,0,0,0,1,0,0,0,0,1,0,5,0,-5,1]", "[1e39,0,0,0,0,1,0,0,0,0,1,0,5,0,-5,1]"),
            kObj + "/instance/instances/0/0: must be within the f32 range (found 1e39)");
  EXPECT_EQ(refused("\"mesh_hash\":\"0x0badf00d12345678\"", "\"mesh_hash\":\"0x0badf00d1234567\""),
            kObj + "/instance/compiled/mesh_hash: must be an id \"0x\" + 16 hex digits (found \"0x0badf00d1234567\")");
  EXPECT_EQ(refused("\"size\":612", "\"size\":612.5"), "/size: must be the file size in bytes (found 612.5)");
  EXPECT_EQ(refused("\"format\":\"anvilrt/1\"", "\"format\":\"anvilrt/2\""),
            "/format: must be \"anvilrt/1\" (found \"anvilrt/2\")");
  EXPECT_EQ(refused("\"offset\":16,\"length\"", "\"offset\":17,\"length\""),
            kObj + "/offset: must be 16, where its span starts (found 17)");
}

TEST_F(BuildMessages, WrongTypesAreNamedByType) {
  EXPECT_EQ(refused("\"active\":1,", "\"active\":\"1\","),
            kObj + "/active: must be an integer 0..255 (found a string)");
  EXPECT_EQ(refused("\"id\":\"0x00000000000004d2\"", "\"id\":1234"),
            kObj + "/id: must be an id \"0x\" + 16 hex digits (found a number)");
  EXPECT_EQ(refused("\"class\":\"Visual\"", "\"class\":7"),
            kObj + "/class: must be a class name (a string) (found a number)");
  EXPECT_EQ(refused("\"tag\":[2,0]", "\"tag\":{}"),
            kObj + "/object/tag: must be an array of 2 elements (found an object)");
  EXPECT_EQ(refused("\"format\":\"anvilrt/1\"", "\"format\":1"), "/format: must be \"anvilrt/1\" (found 1)");
  EXPECT_EQ(refused("\"object\":{\"tag\"", "\"object\":[],\"x\":{\"tag\""),
            kObj + "/object: must be an object (found an array)");
}

TEST_F(BuildMessages, ArraysOfTheWrongLengthSayTheirLength) {
  EXPECT_EQ(refused("[1,0,0,0,0,1,0,0,0,0,1,0,5,0,-5,1]", "[1,0,0,0,0,1,0,0,0,0,1,0,5,0,-5]"),
            kObj + "/instance/instances/0: must have 16 elements (found 15)");
  EXPECT_EQ(refused("\"tag\":[2,0]", "\"tag\":[2,0,0]"), kObj + "/object/tag: must have 2 elements (found 3)");
}

TEST_F(BuildMessages, SyntaxErrorsGiveLineAndColumn) {
  EXPECT_EQ(refused_text("{\"format\":\"anvilrt/1\",\n  \"game\": \"ac2\"\n  \"size\": 1}"),
            "line 3, column 3: not JSON: missing a comma or '}' after an object member");
  // Columns count characters: the two bytes of "é" are one column; the error is at "}".
  EXPECT_EQ(refused_text("{\n\"é\": tru}"), "line 2, column 9: not JSON: invalid value");
  EXPECT_EQ(refused_text(""), "line 1, column 1: not JSON: the document is empty");
  EXPECT_EQ(refused_text("{\"format\":\"anvilrt/1\",\n\"size\": 0E+222}"),
            "line 2, column 9: a number that the JSON parser would misread (see reader/json_numbers.hpp)");
}

}  // namespace
}  // namespace anvil
