// One name for a data file (model/forge/archive.hpp, data_file_names): what `ls` shows is what `extract`,
// `dump` and a patch's /datafiles/NAME/... take and what extract names its file; a clash is spelled the
// same everywhere; an id works wherever a name does; the file-name form of an unsafe name is taken too.
#include <absl/strings/str_cat.h>
#include <absl/strings/str_format.h>
#include <absl/strings/str_split.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include <cstring>
#include <filesystem>

#include "model/forge/archive.hpp"
#include "reader/forge/archive_reader.hpp"
#include "tests/test_support.hpp"

namespace anvil::forge {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

TEST(DataFileNames, EscapedAndUniqueIgnoringCase) {
  Archive a;
  a.files.resize(7);
  const char* names[] = {"Same", "same", "a/b:\x1b\\", "Same", "Other", "Same@0x00000001", "same"};
  const u32 ids[] = {1, 2, 3, 1, 4, 5, 1};
  for (std::size_t i = 0; i < 7; ++i) {
    std::memcpy(a.files[i].name.name.bytes.data(), names[i], std::strlen(names[i]));
    a.files[i].index.file_id.value = ids[i];
  }
  std::vector<std::string> unique = data_file_names(a);
  EXPECT_EQ(unique, (std::vector<std::string>{"Same", "same@0x00000002", "a/b:\\x1b\\x5c", "Same@0x00000001", "Other",
                                              "Same@0x00000001@0x00000005", "same@0x00000001@6"}));
  EXPECT_EQ(find_data_files(a, unique, "Same@0x00000001"), std::vector<std::size_t>{3});
  EXPECT_EQ(find_data_files(a, unique, "0x00000001"), (std::vector<std::size_t>{0, 3, 6}));
  EXPECT_EQ(find_data_files(a, unique, "0x4"), std::vector<std::size_t>{4});
  EXPECT_EQ(find_data_files(a, unique, "a%2fb%3a%1b%5c"), std::vector<std::size_t>{2});
  EXPECT_TRUE(find_data_files(a, unique, "same").empty()) << "names are exact; the clash took a suffix";
  EXPECT_TRUE(find_data_files(a, unique, "0x").empty());
  EXPECT_TRUE(find_data_files(a, unique, "0x1g").empty());
}

TEST(DataFileNames, FileNames) {
  EXPECT_EQ(file_name_of("DataFile_000", 0), "DataFile_000");
  EXPECT_EQ(file_name_of("Same@0x00000001", 0), "Same@0x00000001");
  EXPECT_EQ(file_name_of("a/b\\:*?\"<>|%c", 0), "a%2fb%5c%3a%2a%3f%22%3c%3e%7c%25c");
  EXPECT_EQ(file_name_of("x\\x1by\\x5c", 0), "x%1by%5c");
  EXPECT_EQ(file_name_of(".hidden", 0), "%2ehidden");
  EXPECT_EQ(file_name_of("..", 0), "%2e.");
  EXPECT_EQ(file_name_of("", 0), "%");
  EXPECT_EQ(file_name_of("con", 0), "co%6e");
  EXPECT_EQ(file_name_of("COM3.x", 0), "COM%33.x");
  EXPECT_EQ(file_name_of("COM0", 0), "COM0");
  EXPECT_EQ(file_name_of("console", 0), "console");
  // Windows takes a device name before spaces too ("NUL .x" is NUL), and CONIN$ and CONOUT$ are the
  // console's; a name that only starts like one is not.
  EXPECT_EQ(file_name_of("nul ", 0), "nu%6c ");
  EXPECT_EQ(file_name_of("CON  .x", 0), "CO%4e  .x");
  EXPECT_EQ(file_name_of("conin$", 0), "conin%24");
  EXPECT_EQ(file_name_of("CONOUT$.a", 0), "CONOUT%24.a");
  EXPECT_EQ(file_name_of("COM1 x", 0), "COM1 x");
  EXPECT_EQ(file_name_of("CONIN", 0), "CONIN");
  // Trailing dots and spaces, which Windows drops from a file name's end, stay: ".data" follows them.
  EXPECT_EQ(file_name_of("a. ", 0), "a. ");
  std::string long_name(250, 'a');
  EXPECT_EQ(file_name_of(long_name, 7), std::string(200, 'a') + "%-7");
  // Never cut inside a "%NN".
  std::string spelled = file_name_of(std::string(199, 'a') + std::string(30, '/'), 3);
  EXPECT_EQ(spelled, std::string(199, 'a') + "%-3");
}

// An archive whose data files 1 and 3 are both named "Same" and data file 2 has a name no file system
// takes as it is.
class OneName : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string generated = dir_.path("gen.forge");
    auto r = test::run_cli({"gen", "--forge", "--game", "ac2", "--datafiles", "5", "--visuals", "4", "--seed", "3",
                            "--block-size", "500", "-o", generated});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    std::vector<u8> bytes = test::read_file(generated);
    auto archive = read_archive(bytes);
    ASSERT_TRUE(archive.ok()) << archive.status();
    auto rename = [&](std::size_t i, std::string_view name) {
      const DataFileAt& f = archive->files[i];
      // The name entry's name (at +44) and the data file header's (at its start).
      for (u64 at : {f.name_entry_offset + 44, f.index.offset}) {
        std::fill_n(bytes.begin() + static_cast<std::ptrdiff_t>(at), 128, u8{0});
        std::memcpy(bytes.data() + at, name.data(), name.size());
      }
    };
    rename(1, "Same");
    rename(3, "Same");
    rename(2, "a/b:\x1b");
    for (std::size_t i = 0; i < 5; ++i)
      ids_.push_back(absl::StrFormat("0x%08x", archive->files[i].index.file_id.value));
    archive_ = dir_.path("same.forge");
    test::write_file(archive_, bytes);
    clash_ = "Same@" + ids_[3];
  }

  rapidjson::Document dump(const std::string& archive, const std::string& selector) {
    auto r = test::run_cli({"dump", archive, selector, "-q"});
    EXPECT_EQ(r.exit_code, 0) << r.err;
    rapidjson::Document d;
    d.Parse(r.out.c_str());
    EXPECT_FALSE(d.HasParseError());
    return d;
  }

  test::TempDir dir_;
  std::string archive_;
  std::vector<std::string> ids_;
  std::string clash_;
};

TEST_F(OneName, LsExtractAndDumpAgree) {
  auto ls = test::run_cli({"ls", archive_});
  ASSERT_EQ(ls.exit_code, 0) << ls.err;
  std::vector<std::string> lines = absl::StrSplit(ls.out, '\n', absl::SkipEmpty());
  ASSERT_EQ(lines.size(), 6u);
  EXPECT_THAT(lines[1], HasSubstr(ids_[1] + "  Same "));
  EXPECT_THAT(lines[2], HasSubstr(ids_[2] + "  a/b:\\x1b "));
  EXPECT_THAT(lines[3], HasSubstr(ids_[3] + "  " + clash_ + " "));
  auto json = test::run_cli({"ls", archive_, "--json"});
  ASSERT_EQ(json.exit_code, 0) << json.err;
  rapidjson::Document listed;
  listed.Parse(json.out.c_str());
  ASSERT_FALSE(listed.HasParseError());
  EXPECT_STREQ(listed["datafiles"][3]["name"].GetString(), clash_.c_str());
  EXPECT_STREQ(listed["datafiles"][2]["name"].GetString(), "a/b:\\x1b");

  // Everything: each file is named after the name ls shows.
  std::string all = dir_.path("all");
  auto r = test::run_cli({"extract", archive_, "-o", all});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* name : {"Same.data", "a%2fb%3a%1b.data"}) EXPECT_TRUE(fs::exists(all + "/" + name)) << name;
  ASSERT_TRUE(fs::exists(all + "/" + clash_ + ".data"));

  // By the name ls shows, by the id and by the file name: the same one file.
  for (const std::string& selector : {clash_, ids_[3]}) {
    std::string out = dir_.path("one");
    fs::remove_all(out);
    r = test::run_cli({"extract", archive_, selector, "-o", out});
    ASSERT_EQ(r.exit_code, 0) << selector << ": " << r.err;
    EXPECT_EQ(test::read_file(out + "/" + clash_ + ".data"), test::read_file(all + "/" + clash_ + ".data"));
    EXPECT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator()), 2);  // and forge.json
  }
  for (const std::string& selector : {std::string("a/b:\\x1b"), std::string("a%2fb%3a%1b"), ids_[2]}) {
    std::string out = dir_.path("unsafe");
    fs::remove_all(out);
    r = test::run_cli({"extract", archive_, selector, "-o", out});
    ASSERT_EQ(r.exit_code, 0) << selector << ": " << r.err;
    EXPECT_EQ(test::read_file(out + "/a%2fb%3a%1b.data"), test::read_file(all + "/a%2fb%3a%1b.data")) << selector;
  }

  // dump: the same key for the name, the id and the file name.
  for (const std::string& selector : {clash_, ids_[3]}) {
    rapidjson::Document d = dump(archive_, selector);
    ASSERT_TRUE(d["datafiles"].HasMember(clash_.c_str())) << selector;
    EXPECT_EQ(d["datafiles"].MemberCount(), 1u);
    EXPECT_EQ(d["datafiles"][clash_.c_str()]["size"].GetUint64(), fs::file_size(all + "/" + clash_ + ".data"));
  }
  rapidjson::Document unsafe = dump(archive_, "a%2fb%3a%1b");
  EXPECT_TRUE(unsafe["datafiles"].HasMember("a/b:\\x1b"));
}

// A patch addresses the data file as /datafiles/NAME/... with the name ls shows, or as /datafiles/0xID/...:
// both give the same archive, with the change in that data file.
TEST_F(OneName, PatchByNameAndById) {
  rapidjson::Document before = dump(archive_, clash_);
  const auto& objects = before["datafiles"][clash_.c_str()]["objects"];
  ASSERT_GT(objects.MemberCount(), 0u);
  std::string key = objects.MemberBegin()->name.GetString();
  int managed = objects.MemberBegin()->value["managed"].GetInt();
  std::vector<std::string> outputs;
  for (const std::string& segment : {clash_, ids_[3]}) {
    std::string patch = dir_.path("p.json");
    std::string text = absl::StrFormat(R"([{"op":"replace","path":"/datafiles/%s/objects/%s/managed","value":%d}])",
                                       segment, key, managed ^ 1);
    test::write_file(patch, std::vector<u8>(text.begin(), text.end()));
    outputs.push_back(dir_.path("patched" + std::to_string(outputs.size()) + ".forge"));
    auto r = test::run_cli({"patch", archive_, patch, "-o", outputs.back(), "-q"});
    ASSERT_EQ(r.exit_code, 0) << segment << ": " << r.err;
  }
  EXPECT_EQ(test::read_file(outputs[0]), test::read_file(outputs[1]));
  rapidjson::Document after = dump(outputs[0], clash_);
  EXPECT_EQ(after["datafiles"][clash_.c_str()]["objects"][key.c_str()]["managed"].GetInt(), managed ^ 1);
  // The other "Same" is untouched.
  EXPECT_EQ(test::read_file(outputs[0]).size(), test::read_file(archive_).size());
  rapidjson::Document first_before = dump(archive_, "Same"), first_after = dump(outputs[0], "Same");
  EXPECT_TRUE(first_before == first_after);

  // A name with a '/' and an escape: as ls shows it (in a pointer '/' is "~1"; in JSON text '\' is "\\"),
  // as its file name, and as its id, the same data file.
  u64 size = dump(archive_, ids_[2])["datafiles"]["a/b:\\x1b"]["size"].GetUint64();
  std::string tests = dir_.path("t.json");
  std::string ops;
  for (const std::string& segment : {std::string("a~1b:\\\\x1b"), std::string("a%2fb%3a%1b"), ids_[2]})
    ops += absl::StrFormat(R"(%s{"op":"test","path":"/datafiles/%s/size","value":%d})", ops.empty() ? "" : ",", segment,
                           size);
  ops = "[" + ops + "]";
  test::write_file(tests, std::vector<u8>(ops.begin(), ops.end()));
  auto tested = test::run_cli({"patch", archive_, tests, "--dry-run", "-q"});
  EXPECT_EQ(tested.exit_code, 0) << ops << "\n" << tested.err;

  // An id that no data file has is refused, naming it.
  std::string patch = dir_.path("none.json");
  std::string text = R"([{"op":"replace","path":"/datafiles/0x12345678/size","value":1}])";
  test::write_file(patch, std::vector<u8>(text.begin(), text.end()));
  auto r = test::run_cli({"patch", archive_, patch, "-o", dir_.path("none.forge"), "-q"});
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr("no data file is named or has the id \"0x12345678\""));
}

// An id that two data files share: extract and dump take both; a patch pointer must name one, and is
// refused naming them.
TEST_F(OneName, AnIdThatSeveralDataFilesShare) {
  std::vector<u8> bytes = test::read_file(archive_);
  auto archive = read_archive(bytes);
  ASSERT_TRUE(archive.ok()) << archive.status();
  u32 id = archive->files[3].index.file_id.value;
  std::memcpy(bytes.data() + archive->files[4].index_entry_offset + 8, &id, 4);
  std::string shared = dir_.path("shared.forge");
  test::write_file(shared, bytes);

  auto ls = test::run_cli({"ls", shared});
  ASSERT_EQ(ls.exit_code, 0) << ls.err;
  std::string out = dir_.path("both");
  auto r = test::run_cli({"extract", shared, ids_[3], "-o", out});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(fs::exists(out + "/" + clash_ + ".data"));
  EXPECT_TRUE(fs::exists(out + "/DataFile_004.data"));
  EXPECT_EQ(std::distance(fs::directory_iterator(out), fs::directory_iterator()), 3);  // and forge.json

  std::string patch = dir_.path("p.json");
  std::string text = absl::StrFormat(R"([{"op":"test","path":"/datafiles/%s/size","value":1}])", ids_[3]);
  test::write_file(patch, std::vector<u8>(text.begin(), text.end()));
  r = test::run_cli({"patch", shared, patch, "-o", dir_.path("p.forge"), "-q"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, HasSubstr(absl::StrFormat("several data files have the id %s (%s, DataFile_004): address one by "
                                               "its name",
                                               ids_[3], clash_)));
  EXPECT_FALSE(fs::exists(dir_.path("p.forge")));
}

}  // namespace
}  // namespace anvil::forge
