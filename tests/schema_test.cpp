// The describing archive and what `anvilrt schema` makes of it: docs/format.md is current, every size a
// structure states for its count checks is the one its declaration lays out, and the descriptions name
// every structure and check.
#include "schema/schema.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "model/ac2/visual.hpp"

namespace anvil {
namespace {

TEST(Schema, FormatReferenceIsCurrent) {
  std::ifstream in(std::string(ANVILRT_CORPUS) + "/../docs/format.md", std::ios::binary);
  ASSERT_TRUE(in) << "docs/format.md is missing: anvilrt schema --markdown -o docs/format.md";
  std::stringstream committed;
  committed << in.rdbuf();
  EXPECT_TRUE(committed.str() == schema::format_markdown())
      << "docs/format.md is stale: run anvilrt schema --markdown -o docs/format.md";
}

TEST(Schema, StatedSizesAreTheDeclaredOnes) {
  std::vector<schema::TopLevel> tops = schema::top_levels();
  int checked = 0;
  for (const describe::Node* s : schema::structures(tops)) {
    if (!s->stated_size) continue;
    ++checked;
    if (s->stated_size_is_least)
      EXPECT_EQ(*s->stated_size, describe::min_size(*s)) << s->type << "::min_wire_size";
    else
      EXPECT_EQ(s->stated_size, describe::fixed_size(*s)) << s->type << "::wire_size";
  }
  EXPECT_GE(checked, 5);
}

TEST(Schema, DescribesEveryAlternativeAndCheck) {
  describe::Node visual = describe::describe_struct<ac2::Visual>();
  EXPECT_EQ(visual.type, "ac2::Visual");
  EXPECT_EQ(visual.section, "2.1");
  ASSERT_GE(visual.children.size(), 2u);
  EXPECT_EQ(visual.children[1].kind, describe::Kind::kConstant);
  EXPECT_EQ(visual.children[1].constant, class_id::kVisual);
  EXPECT_FALSE(visual.children[1].shown);
  // instance: a pointer to ac2::Instance, whose class switch has four alternatives, the last any class
  const describe::Node& instance = visual.children[7];
  ASSERT_EQ(instance.kind, describe::Kind::kPointer);
  const describe::Node& sw = instance.children[0].children[1];
  ASSERT_EQ(sw.kind, describe::Kind::kSwitch);
  ASSERT_EQ(sw.alternatives.size(), 4u);
  EXPECT_EQ(sw.alternatives[0].class_id, class_id::kLODSelectorInstance);
  EXPECT_TRUE(sw.any_class);
  EXPECT_FALSE(sw.alternatives[3].class_id.has_value());
  EXPECT_EQ(describe::fixed_size(describe::describe_struct<ac2::VisualTail>()), 125u);
  // Every structure appears once in the reference, with its section.
  std::string md = schema::format_markdown();
  std::vector<schema::TopLevel> tops = schema::top_levels();
  for (const describe::Node* s : schema::structures(tops))
    EXPECT_NE(md.find("### `" + s->type + "`"), std::string::npos) << s->type;
  EXPECT_NE(md.find("must be 0x995BFBF5 (material info class)"), std::string::npos);
}

TEST(Schema, KaitaiAndImHexNameEveryTopLevelType) {
  std::string ksy = schema::kaitai_struct();
  std::string hexpat = schema::imhex_pattern();
  for (const char* t : {"ac2_visual", "sws_lod_selector", "sws_visual", "ac2_lod_selector_instance"}) {
    EXPECT_NE(ksy.find(std::string("  ") + t + ":\n"), std::string::npos) << t;
    EXPECT_NE(hexpat.find(std::string("struct ") + t + " {"), std::string::npos) << t;
  }
  EXPECT_EQ(schema::kaitai_type_name("ac2::LODSelectorInstance"), "ac2_lod_selector_instance");
  EXPECT_EQ(schema::kaitai_type_name("sws::LODDescriptor"), "sws_lod_descriptor");
}

}  // namespace
}  // namespace anvil
