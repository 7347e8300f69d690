// `ls --json` takes the members that are fields of a declared structure from the declaration
// (pipeline/ls_json.hpp, writer/json_member.hpp): under the NVP name, spelled as the saving JSON archive
// spells the field. Each data file's object is checked against its index entry and name entry written
// whole by that archive, so a name changed in a declaration fails here unless ls follows it.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <stdexcept>
#include <string>

#include "model/forge/index_entry.hpp"
#include "model/forge/name_entry.hpp"
#include "reader/forge/archive_reader.hpp"
#include "tests/test_support.hpp"
#include "writer/json_member.hpp"
#include "writer/json_writer.hpp"

namespace anvil::forge {
namespace {

// `value`'s fields, all of them, as the saving JSON archive writes them.
template <class T>
rapidjson::Document declared(const T& value, ForgeVariant variant) {
  rapidjson::Document doc;
  T copy = value;
  auto generate = [&](rapidjson::Document& handler) {
    JsonWriter<rapidjson::Document> writer(handler);
    writer.set_version(variant.code());
    writer.start_object();
    writer.fields(copy);
    writer.end_object();
    return true;
  };
  doc.Populate(generate);
  return doc;
}

// One member written by write_member into an object of its own, as text.
template <class T>
std::string one_member(const T& value, ForgeVariant variant, std::string_view name) {
  rapidjson::StringBuffer text;
  rapidjson::Writer<rapidjson::StringBuffer> out(text);
  out.StartObject();
  write_member(out, value, variant.code(), name);
  out.EndObject();
  return text.GetString();
}

TEST(WriteMember, TheDeclarationsNameAndSpelling) {
  IndexEntry entry;
  entry.offset = 832;
  entry.file_id.value = 0xabcd;
  entry.size = 400;
  EXPECT_EQ(one_member(entry, {25, 1}, "file_id"), R"({"file_id":"0x0000abcd"})");
  EXPECT_EQ(one_member(entry, {27, 1}, "file_id"), R"({"file_id":"0x000000000000abcd"})");
  EXPECT_EQ(one_member(entry, {25, 1}, "size"), R"({"size":400})");
  NameEntry name;
  name.file_type.value = 0x0faeba30;
  EXPECT_EQ(one_member(name, {25, 1}, "file_type"), R"({"file_type":"0x0faeba30"})");
  EXPECT_THROW(one_member(entry, {25, 1}, "stored_size"), std::logic_error);
}

void expect_declared_members(const rapidjson::Value& listed, const rapidjson::Document& fields,
                             const std::string& where) {
  ASSERT_GT(fields.MemberCount(), 0u) << where;
  for (const auto& m : fields.GetObject()) {
    ASSERT_TRUE(listed.HasMember(m.name)) << where << ": ls --json has no \"" << m.name.GetString() << "\"";
    EXPECT_EQ(listed[m.name], m.value) << where << ": " << m.name.GetString();
  }
}

TEST(LsJson, MembersAreTheDeclarationsFields) {
  for (const char* file : {"ac2_five_forms.forge", "ac2_v27.forge", "unity_v27_layout3.forge"}) {
    const std::string path = std::string(ANVILRT_CORPUS) + "/forge/" + file;
    auto r = test::run_cli({"ls", "--json", "-q", path});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    rapidjson::Document doc = test::parse_json(r.out);
    const std::vector<u8> bytes = test::read_file(path);
    auto archive = read_archive(bytes);
    ASSERT_TRUE(archive.ok()) << archive.status();
    EXPECT_EQ(doc["version"].GetUint64(), archive->header.version);
    const auto& files = doc["datafiles"];
    ASSERT_EQ(files.Size(), archive->files.size());
    for (rapidjson::SizeType i = 0; i < files.Size(); ++i) {
      const DataFileAt& f = archive->files[i];
      const std::string where = std::string(file) + " data file " + std::to_string(i);
      // Every field of the index entry: offset, file_id, size.
      expect_declared_members(files[i], declared(f.index, archive->variant()), where);
      // The name entry's file_type (its name is listed in the unique spelling, its kept runs not at all).
      const rapidjson::Document name_fields = declared(f.name, archive->variant());
      ASSERT_TRUE(name_fields.HasMember("file_type"));
      EXPECT_EQ(files[i]["file_type"], name_fields["file_type"]) << where;
    }
  }
}

}  // namespace
}  // namespace anvil::forge
