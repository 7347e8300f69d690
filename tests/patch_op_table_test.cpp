// The one table of patch operations (patch/ops.hpp): every operation in it is known to the engine and
// routes over an archive as the table says. A bulk operation that reached one data file only would edit
// one data file of an archive without a word; here each one, given level data that holds nothing it
// matches, must have been tried in every data file before it fails.
#include <absl/strings/str_cat.h>
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "patch/archive_patch.hpp"
#include "patch/ops.hpp"
#include "patch/patch.hpp"
#include "reader/level_set.hpp"

namespace anvil {
namespace {

// An operation of each name with valid members, ranging over every object ("*") or holding a path.
const std::map<std::string, std::string>& examples() {
  static const std::map<std::string, std::string> e = {
      {"test", R"({"op":"test","path":"/objects/0x0000000000000001/active","value":1})"},
      {"replace", R"({"op":"replace","path":"/objects/0x0000000000000001/active","value":1})"},
      {"add", R"({"op":"add","path":"/objects/0x0000000000000001/active","value":1})"},
      {"remove", R"({"op":"remove","path":"/objects/0x0000000000000001/instance/instances/0"})"},
      {"move", R"({"op":"move","from":"/objects/0x0000000000000001/a","path":"/objects/0x0000000000000001/b"})"},
      {"copy", R"({"op":"copy","from":"/objects/0x0000000000000001/a","path":"/objects/0x0000000000000001/b"})"},
      {"swap_material", R"({"op":"swap_material","from":"0x0000000000000001","to":"0x0000000000000002"})"},
      {"transform", R"({"op":"transform","objects":"*","translate":[1,2,3]})"},
      {"set_switch_distance", R"({"op":"set_switch_distance","objects":"*","value":10})"},
      {"scale_switch_distance", R"({"op":"scale_switch_distance","objects":"*","factor":2})"},
      {"duplicate_instance", R"({"op":"duplicate_instance","objects":"*","index":0,"translate":[1,2,3]})"},
      {"remove_instance", R"({"op":"remove_instance","objects":"*","index":0})"},
      {"add_material",
       R"({"op":"add_material","objects":"*","source":"0x0000000000000001","replacement":"0x0000000000000002","mode":1})"},
  };
  return e;
}

TEST(PatchOpTable, NamesAreUniqueAndTheUnknownOpErrorListsThemAll) {
  std::set<std::string_view> names;
  for (const patch::OpInfo& info : patch::kOps) {
    EXPECT_TRUE(names.insert(info.name).second) << info.name;
    EXPECT_EQ(patch::find_op(info.name), &info);
  }
  Level level;
  auto out = patch::apply_patch_text(level, R"([{"op":"swap"}])");
  ASSERT_TRUE(out.error);
  EXPECT_EQ(out.error->reason, absl::StrCat("unknown op \"swap\" (", patch::op_names(), ")"));
  for (const patch::OpInfo& info : patch::kOps)
    EXPECT_NE(out.error->reason.find(std::string(info.name)), std::string::npos) << info.name;
}

TEST(PatchOpTable, EveryBulkOperationIsTriedInEveryDataFile) {
  for (const patch::OpInfo& info : patch::kOps) {
    SCOPED_TRACE(std::string(info.name));
    auto example = examples().find(std::string(info.name));
    ASSERT_NE(example, examples().end()) << "no example of " << info.name << " in this test";
    if (info.route != patch::OpRoute::by_objects) continue;
    EXPECT_EQ(info.kind, patch::OpKind::bulk);
    // Of the dialects, those the operation applies to match nothing in data files that hold no object,
    // in each of the three: the failure says so.
    bool tried = false;
    for (Game game : {Game::ac2, Game::sws}) {
      MemoryLevelSet set(game);
      for (const char* name : {"a.data", "b.data", "c.data"}) set.add(name, {0, 1, 2, 3});
      auto out = patch::apply_archive_patch_text(set, "[" + example->second + "]");
      ASSERT_TRUE(out.error);
      if (out.error->exit_code != patch::kTestFailed) continue;  // the other dialect's operation
      EXPECT_NE(out.error->reason.find("in any of the 3 data files"), std::string::npos) << out.error->reason;
      tried = true;
    }
    EXPECT_TRUE(tried);
  }
}

TEST(PatchOpTable, EveryPathOperationIsRoutedToTheDataFileOfItsPath) {
  for (const patch::OpInfo& info : patch::kOps) {
    if (info.route != patch::OpRoute::by_path) continue;
    SCOPED_TRACE(std::string(info.name));
    EXPECT_EQ(info.kind, patch::OpKind::rfc6902);
    MemoryLevelSet set(Game::ac2);
    for (const char* name : {"a.data", "b.data", "c.data"}) set.add(name, {0, 1, 2, 3});
    std::string op = examples().at(std::string(info.name));
    auto out = patch::apply_archive_patch_text(set, "[" + op + "]");
    ASSERT_TRUE(out.error);
    // The key is looked up in every data file, and found in none.
    EXPECT_NE(out.error->reason.find("in any data file of the archive"), std::string::npos) << out.error->reason;
  }
}

}  // namespace
}  // namespace anvil
