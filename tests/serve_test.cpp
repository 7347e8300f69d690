// `anvilrt serve`'s parts without HTTP (the HTTP side: tests/serve/serve_security.py and serve_browser.py):
// the door's verdicts, the bounded output names, the search index, and the fields the page offers to edit
// against what the patch engine accepts; a game folder's session against `anvilrt patch DIR`.
#include <gtest/gtest.h>
#include <rapidjson/document.h>
#include <rapidjson/stringbuffer.h>
#include <rapidjson/writer.h>

#include <filesystem>
#include <string>

#include "pipeline/game_folder.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/input_file.hpp"
#include "reader/level.hpp"
#include "reader/level_source.hpp"
#include "serve/fields.hpp"
#include "serve/object_index.hpp"
#include "serve/output_name.hpp"
#include "serve/request_json.hpp"
#include "serve/security.hpp"
#include "serve/session.hpp"
#include "tests/game_folder_support.hpp"
#include "tests/serve_input_support.hpp"
#include "tests/test_support.hpp"

namespace anvil::serve {
namespace {

using test::corpus;
using test::write_file;

TEST(ServeDoor, TokenFromTheHeaderAlonePageFilesWithout) {
  const Door door{"00112233445566778899aabbccddeeff", 8080};
  Knock k;
  k.host = "127.0.0.1:8080";
  EXPECT_TRUE(refusal(door, k).has_value());
  k.header_token = door.token;
  EXPECT_FALSE(refusal(door, k).has_value());
  k.header_token = "00112233445566778899aabbccddeefe";
  EXPECT_TRUE(refusal(door, k).has_value());
  k.header_token = door.token.substr(1);
  EXPECT_TRUE(refusal(door, k).has_value());
  // The page's own files need no token, but the Host and Origin checks still hold for them.
  k.header_token.clear();
  k.page_file = true;
  EXPECT_FALSE(refusal(door, k).has_value());
  k.host = "evil.example:8080";
  EXPECT_TRUE(refusal(door, k).has_value());
  k.host = "127.0.0.1:8080";
  k.origin = "http://evil.example";
  EXPECT_TRUE(refusal(door, k).has_value());
}

TEST(ServeDoor, HostAndOrigin) {
  const Door door{"ab", 8080};
  Knock k;
  k.host = "localhost:8080";
  k.header_token = "ab";
  EXPECT_FALSE(refusal(door, k).has_value());
  for (const char* host : {"evil.example:8080", "127.0.0.1", "127.0.0.1:80", "localhost:8080.evil", ""}) {
    k.host = host;
    EXPECT_TRUE(refusal(door, k).has_value()) << host;
  }
  k.host = "127.0.0.1:8080";
  k.origin = "http://127.0.0.1:8080";
  EXPECT_FALSE(refusal(door, k).has_value());
  for (const char* origin : {"http://evil.example", "null", "https://127.0.0.1:8080", "http://127.0.0.1:8081", ""}) {
    k.origin = origin;
    EXPECT_TRUE(refusal(door, k).has_value()) << origin;
  }
}

TEST(ServeDoor, TokensAre128BitsOfHexAndDiffer) {
  const std::string a = new_token(), b = new_token();
  EXPECT_EQ(a.size(), 32u);
  EXPECT_EQ(a.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_NE(a, b);
}

TEST(ServeRequests, DepthAndShapeBounded) {
  rapidjson::Document d;
  EXPECT_TRUE(parse_request(R"({"patch": []})", d).ok());
  EXPECT_FALSE(parse_request("[]", d).ok());
  EXPECT_FALSE(parse_request("{", d).ok());
  std::string deep = "{\"a\":" + std::string(64, '[') + std::string(64, ']') + "}";
  EXPECT_FALSE(parse_request(deep, d).ok());
  std::string fits = "{\"a\":" + std::string(62, '[') + std::string(62, ']') + "}";
  EXPECT_TRUE(parse_request(fits, d).ok());
  EXPECT_FALSE(parse_request(std::string(kMaxBodyBytes + 1, ' '), d).ok());
}

TEST(ServeOutputName, OnlyAFileNameInTheFolder) {
  namespace fs = std::filesystem;
  const fs::path folder = fs::temp_directory_path() / "anvilrt_serve_output_name";
  fs::remove_all(folder);
  fs::create_directories(folder);
  const std::string input = (folder / "input.forge").string();
  write_file(input, std::vector<u8>{1, 2, 3});
  auto ok = output_target("copy.forge", folder.string(), input, false);
  ASSERT_TRUE(ok.ok()) << ok.status();
  EXPECT_EQ(*ok, (folder / "copy.forge").string());
  for (const char* name : {"", "../x", "a/b", "/etc/passwd", "..", ".x", "a\\b", "input.forge", "a\nb"})
    EXPECT_FALSE(output_target(name, folder.string(), input, true).ok()) << name;
  write_file((folder / "there.bin").string(), std::vector<u8>{1});
  EXPECT_TRUE(absl::IsAlreadyExists(output_target("there.bin", folder.string(), input, false).status()));
  EXPECT_TRUE(output_target("there.bin", folder.string(), input, true).ok());
  fs::remove_all(folder);
}

// A link at the name is never written through, even confirmed. Windows' links: tests/windows/
// (WindowsServe.ALinkAtTheCopysNameIsRefused).
TEST(ServeOutputName, ASymbolicLinkAtTheNameIsRefused) {
  SKIP_ON_WINDOWS("std::filesystem::create_symlink is not implemented by MinGW's libstdc++ (ENOSYS)");
  namespace fs = std::filesystem;
  const fs::path folder = fs::temp_directory_path() / "anvilrt_serve_output_link";
  fs::remove_all(folder);
  fs::create_directories(folder);
  const std::string input = (folder / "input.forge").string();
  write_file(input, std::vector<u8>{1, 2, 3});
  write_file((folder / "elsewhere.bin").string(), std::vector<u8>{1});
  fs::create_symlink(input, folder / "link.forge");
  fs::create_symlink(folder / "elsewhere.bin", folder / "other.forge");
  EXPECT_FALSE(output_target("link.forge", folder.string(), input, true).ok());
  auto other = output_target("other.forge", folder.string(), input, true);
  ASSERT_FALSE(other.ok());
  EXPECT_NE(other.status().message().find("is a link"), std::string_view::npos) << other.status();
  fs::remove_all(folder);
}

// A session over a corpus file, as `anvilrt serve` opens it.

std::unique_ptr<test::OpenedServeInput> open_corpus(const std::string& relative) {
  return test::open_serve_input(corpus(relative));
}

SearchQuery query(SearchField field, std::string text, std::size_t page = 0, std::size_t size = 50) {
  SearchQuery q;
  q.field = field;
  q.text = std::move(text);
  q.page = page;
  q.page_size = size;
  return q;
}

TEST(ServeSearch, KeyClassAndPages) {
  auto opened = open_corpus("forge/ac2_five_forms.forge");
  Session session(opened->input);
  ObjectIndex index;
  index.build(session);
  ASSERT_TRUE(index.ready());
  EXPECT_EQ(index.objects(), 12u);
  SearchResult all = index.search({});
  EXPECT_EQ(all.total, 12u);
  SearchResult key = index.search(query(SearchField::key, "0XA7F13E8D"));
  ASSERT_EQ(key.total, 1u);
  EXPECT_EQ(key.page[0]->key, "0xa7f13e8d804b9c06");
  EXPECT_EQ(key.page[0]->instances, 1u);
  EXPECT_EQ(index.search(query(SearchField::mesh, "dca9d66cbdb75ca2")).total, 1u);
  EXPECT_EQ(index.search(query(SearchField::material, "0xf06cdba1a7d47290")).total, 1u);
  EXPECT_EQ(index.search(query(SearchField::key, "0xf06cdba1a7d47290")).total, 0u);
  SearchResult second = index.search(query(SearchField::any, "", 1, 5));
  EXPECT_EQ(second.total, 12u);
  ASSERT_EQ(second.page.size(), 5u);
  EXPECT_EQ(second.page[0], all.page[5]);
}

std::string text_of_json(const rapidjson::Value& v) {
  rapidjson::StringBuffer buffer;
  rapidjson::Writer<rapidjson::StringBuffer> w(buffer);
  v.Accept(w);
  return buffer.GetString();
}

// The page offers an edit where the engine takes one: every editable field accepts its own value
// back, and every checked constant it shows read-only is refused by the engine when changed.
void check_fields_against_engine(const std::string& relative) {
  auto opened = open_corpus(relative);
  Session session(opened->input);
  ObjectIndex index;
  index.build(session);
  std::size_t editable = 0, constants = 0;
  for (const IndexedObject* o : index.search(query(SearchField::any, "", 0, 1000)).page) {
    auto json = session.object_json(o->datafile, o->key, "[]");
    ASSERT_TRUE(json.ok()) << json.status();
    rapidjson::Document object;
    object.Parse(json->c_str());
    rapidjson::Document rows;
    rows.Parse(field_rows(object, opened->input.game).c_str());
    ASSERT_TRUE(rows.IsArray());
    const std::string pointer = session.object_pointer(o->datafile, o->key);
    for (const rapidjson::Value& row : rows.GetArray()) {
      const std::string kind = row["kind"].GetString(), at = pointer + row["pointer"].GetString();
      rapidjson::Document patch(rapidjson::kArrayType);
      rapidjson::Value op(rapidjson::kObjectType);
      op.AddMember("op", "replace", patch.GetAllocator());
      op.AddMember("path", rapidjson::Value(at.c_str(), patch.GetAllocator()), patch.GetAllocator());
      if (row["editable"].GetBool()) {
        op.AddMember("value", rapidjson::Value(row["value"], patch.GetAllocator()), patch.GetAllocator());
        patch.PushBack(op, patch.GetAllocator());
        EXPECT_FALSE(session.check(text_of_json(patch)).error) << at;
        ++editable;
      } else if (kind == "constant" && std::string(row["type"].GetString()) != "place" && row["value"].IsUint()) {
        op.AddMember("value", row["value"].GetUint() + 1, patch.GetAllocator());
        patch.PushBack(op, patch.GetAllocator());
        EXPECT_TRUE(session.check(text_of_json(patch)).error) << at;
        ++constants;
      }
    }
  }
  EXPECT_GT(editable, 0u);
  EXPECT_GT(constants, 0u);
}

TEST(ServeFields, EditableWhereTheEngineTakesAnEditAc2Archive) {
  check_fields_against_engine("forge/ac2_five_forms.forge");
}

TEST(ServeSession, ObjectAsThePatchLeavesIt) {
  auto opened = open_corpus("sws/lod_selector.bin");
  Session session(opened->input);
  const std::string patch = R"([{"op":"replace","path":"/objects/0x00001235/slots/2/switch_distance","value":77.5}])";
  auto before = session.object_json(0, "0x00001235", "[]");
  auto after = session.object_json(0, "0x00001235", patch);
  ASSERT_TRUE(before.ok() && after.ok());
  EXPECT_NE(before->find("\"switch_distance\":32.5"), std::string::npos);
  EXPECT_NE(after->find("\"switch_distance\":77.5"), std::string::npos);
  PatchCheck refused =
      session.check(R"([{"op":"replace","path":"/objects/0x00001235/slots/2/switch_distance","value":"x"}])");
  ASSERT_TRUE(refused.error);
  EXPECT_EQ(refused.error->rfind("op 0 (/objects/0x00001235/slots/2/switch_distance): ", 0), 0u) << *refused.error;
  EXPECT_TRUE(absl::IsNotFound(session.object_json(0, "0x99999999", "[]").status()));
}

// A game folder's session: its data files named A.forge/NAME, every object indexed, pointers of the
// folder document; a patch checked by the folder engine; the copy a new folder as `patch DIR -o` writes.
TEST(ServeSession, GameFolderAsPatchDirTakesIt) {
  test::TempDir dir;
  const std::string game = dir.path("game");
  test::generate_game_folder(game, "ac2", {"A.forge", "B.forge"}, {1, 2});
  auto listed = folder::open_game_folder(game);
  ASSERT_TRUE(listed.ok()) << listed.status();
  ServeInput input;
  input.path = game;
  input.folder = &*listed;
  Session session(input);
  ASSERT_TRUE(session.status().ok()) << session.status();
  ASSERT_TRUE(session.is_folder());
  ASSERT_EQ(session.datafiles(), 4u);
  EXPECT_EQ(session.datafile_name(2).rfind("B.forge/", 0), 0u) << session.datafile_name(2);
  ObjectIndex index;
  index.build(session);
  ASSERT_TRUE(index.ready());
  std::size_t objects = 0;
  for (const std::string name : {"A.forge", "B.forge"})
    for (const auto& [datafile, keys] : test::archive_keys(game + "/" + name)) objects += keys.size();
  EXPECT_EQ(index.objects(), objects);

  // An object of B.forge, by its pointer in the folder's document.
  const IndexedObject* in_b = nullptr;
  for (const IndexedObject* o : index.search(query(SearchField::any, "", 0, 500)).page)
    if (o->datafile >= 2 && o->instances > 0 && !in_b) in_b = o;
  ASSERT_NE(in_b, nullptr);
  const std::string pointer = session.object_pointer(in_b->datafile, in_b->key);
  EXPECT_EQ(pointer,
            "/archives/B.forge/datafiles/" + session.name_in_archive(in_b->datafile) + "/objects/" + in_b->key);
  const std::string patch = R"([{"op":"replace","path":")" + pointer + R"(/instance/instances/0/12","value":-600.5}])";
  PatchCheck check = session.check(patch);
  ASSERT_FALSE(check.error) << *check.error;
  EXPECT_EQ(check.edited_objects, 1u);
  ASSERT_EQ(check.changes.size(), 1u);
  EXPECT_EQ(check.changes[0].pointer, pointer + "/instance/instances/0/12");
  auto after = session.object_json(in_b->datafile, in_b->key, patch);
  ASSERT_TRUE(after.ok()) << after.status();
  EXPECT_NE(after->find("-600.5"), std::string::npos);

  // A bulk operation as the page makes it for a folder's selection: its archive and data file named.
  const std::string bulk = R"([{"op":"transform","objects":[")" + in_b->key +
                           R"("],"translate":[1,0,0],"archives":["B.forge"],"datafiles":[")" +
                           session.name_in_archive(in_b->datafile) + R"("]}])";
  PatchCheck bulk_check = session.check(bulk);
  ASSERT_FALSE(bulk_check.error) << *bulk_check.error;
  EXPECT_EQ(bulk_check.edited_objects, 1u);

  // The copy: a new folder, the same bytes as `anvilrt patch DIR PATCH -o OUTDIR`.
  ASSERT_TRUE(session.write_copy(patch, dir.path("copy")).ok());
  write_file(dir.path("p.json"), std::span<const u8>(reinterpret_cast<const u8*>(patch.data()), patch.size()));
  test::CliResult r = test::run_cli({"patch", game, dir.path("p.json"), "-o", dir.path("by_cli"), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::snapshot_folder(dir.path("copy")), test::snapshot_folder(dir.path("by_cli")));
  EXPECT_NE(test::snapshot_folder(dir.path("copy")), test::snapshot_folder(game));
  // Only into a new folder or an empty one; never the input.
  EXPECT_FALSE(output_target("copy", dir.path(""), game, true, true).ok());
  EXPECT_FALSE(output_target("game", dir.path(""), game, true, true).ok());
  std::filesystem::create_directory(dir.path("empty"));
  EXPECT_TRUE(output_target("empty", dir.path(""), game, false, true).ok());
}

}  // namespace
}  // namespace anvil::serve
