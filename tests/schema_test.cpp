// The describing archive and what `anvilrt schema` makes of it: docs/format.md is current, every size a
// structure states for its count checks is the one its declaration lays out, and the descriptions name
// every structure and check.
#include "schema/schema.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "model/ac2/visual.hpp"
#include "model/forge/archive_header.hpp"
#include "model/forge/data_file_header.hpp"
#include "model/forge/variant.hpp"

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

int check_stated_sizes(const std::vector<const describe::Node*>& structures) {
  int checked = 0;
  for (const describe::Node* s : structures) {
    if (!s->stated_size) continue;
    ++checked;
    if (s->stated_size_is_least)
      EXPECT_EQ(*s->stated_size, describe::min_size(*s)) << s->type << "::min_wire_size";
    else
      EXPECT_EQ(s->stated_size, describe::fixed_size(*s)) << s->type << "::wire_size";
  }
  return checked;
}

TEST(Schema, StatedSizesAreTheDeclaredOnes) {
  std::vector<schema::TopLevel> tops = schema::top_levels();
  EXPECT_GE(check_stated_sizes(schema::structures(tops)), 5);
}

// The containers' wire_size, min_wire_size, head_wire_size and min_body_wire_size (what the count and
// offset checks of the archive reader use) against their declarations, not hand sums.
TEST(Schema, StatedContainerSizesAreTheDeclaredOnes) {
  std::vector<describe::Node> roots = schema::containers();
  std::vector<const describe::Node*> all = schema::structures(roots);
  // ArchiveHeader, StoredDataFile, BlockSet, BlockHead, BlockBody, Chunk, DataFile, EntryHead, EntryBody
  // (the tables' sizes, which the archive version changes, are taken from their declarations by
  // forge::TableLayout: tests/forge_layout_test.cpp)
  EXPECT_EQ(check_stated_sizes(all), 9);
  EXPECT_EQ(describe::fixed_size(describe::describe_struct<forge::DataFileHeader>()), 440u);
}

const describe::Node* find_structure(const std::vector<const describe::Node*>& all, const std::string& type) {
  for (const describe::Node* s : all)
    if (s->type == type) return s;
  return nullptr;
}

const describe::Node* find_field(const std::vector<describe::Node>& fields, const std::string& name) {
  for (const describe::Node& f : fields)
    if (f.name == name) return &f;
  return nullptr;
}

TEST(Schema, DescribesTheContainerWrappers) {
  std::vector<describe::Node> roots = schema::containers();
  std::vector<const describe::Node*> all = schema::structures(roots);
  for (const char* t :
       {"forge::ArchiveHeader", "forge::DataHeader", "forge::TableSection", "forge::IndexEntry", "forge::NameEntry",
        "forge::DataFileHeader", "forge::StoredDataFile", "forge::BlockSet", "forge::BlockHead", "forge::BlockBody",
        "forge::Chunk", "forge::DataFile", "forge::EntryHead", "forge::EntryBody"})
    EXPECT_NE(find_structure(all, t), nullptr) << t;

  // The archive header: the magic, a checked version, and the kept bytes up to H.
  const describe::Node& header = roots[0];
  ASSERT_EQ(header.children.size(), 5u);
  EXPECT_EQ(header.children[0].kind, describe::Kind::kConstant);
  EXPECT_EQ(header.children[0].constant, forge::ArchiveHeader::kMagic);
  ASSERT_EQ(header.children[2].checks.size(), 1u);
  EXPECT_NE(header.children[2].checks[0].find("version must be 25"), std::string::npos);
  EXPECT_EQ(header.children[4].kind, describe::Kind::kSizedBytes);
  EXPECT_EQ(header.children[4].what, "first_header");

  // A name entry's name is text.
  const describe::Node* name = find_field(find_structure(all, "forge::NameEntry")->children, "name");
  ASSERT_NE(name, nullptr);
  EXPECT_EQ(name->kind, describe::Kind::kText);
  EXPECT_EQ(name->size, 128u);

  // A block set: either the table of blocks (heads, then bodies sized by the heads) or chunks.
  const describe::Node* set = find_structure(all, "forge::BlockSet");
  ASSERT_NE(set, nullptr);
  const describe::Node& either = set->children.back();
  ASSERT_EQ(either.kind, describe::Kind::kEither);
  EXPECT_EQ(either.what, "max_size != 0");
  ASSERT_EQ(either.children[0].children.size(), 1u);
  // The block count: u32 in layout 3, u16 otherwise (FORGE.md 7); each form holds its heads and bodies.
  const describe::Node& width = either.children[0].children[0];
  ASSERT_EQ(width.kind, describe::Kind::kEither);
  EXPECT_EQ(width.what, forge::kWideCounts);
  ASSERT_EQ(width.children[0].children.size(), 2u);
  EXPECT_EQ(width.children[0].children[0].count_type, "u32");
  ASSERT_EQ(width.children[1].children.size(), 2u);
  const describe::Node& heads = width.children[1].children[0];
  EXPECT_EQ(heads.kind, describe::Kind::kHeads);
  EXPECT_EQ(heads.count_type, "u16");
  EXPECT_EQ(heads.element_wire_size, 8u);
  const describe::Node& bodies = width.children[1].children[1];
  EXPECT_EQ(bodies.kind, describe::Kind::kBodies);
  EXPECT_EQ(bodies.what, "blocks");
  const describe::Node* compressed_size = find_field(heads.children[0].children, "compressed_size");
  ASSERT_NE(compressed_size, nullptr);
  EXPECT_EQ(compressed_size->kind, describe::Kind::kSizeOf);
  EXPECT_FALSE(compressed_size->shown);
  EXPECT_EQ(compressed_size->sizes, "stored");
  const describe::Node* stored = find_field(bodies.children[0].children, "stored");
  ASSERT_NE(stored, nullptr);
  EXPECT_EQ(stored->sized_by, "compressed_size");
  ASSERT_EQ(either.children[1].children.size(), 1u);
  EXPECT_EQ(either.children[1].children[0].kind, describe::Kind::kUntilEnd);
  EXPECT_EQ(either.children[1].children[0].children[0].type, "forge::Chunk");

  // A chunk: 00 and u16-counted bytes, or 01 and a size field three fields before its run.
  const describe::Node* chunk = find_structure(all, "forge::Chunk");
  ASSERT_NE(chunk, nullptr);
  ASSERT_EQ(chunk->children.size(), 2u);
  EXPECT_EQ(chunk->children[0].checks.size(), 1u);
  const describe::Node& forms = chunk->children[1];
  ASSERT_EQ(forms.kind, describe::Kind::kEither);
  // a plain chunk's size: u32 in layout 3, u16 otherwise (FORGE.md 7)
  const describe::Node& plain_width = forms.children[0].children[0];
  ASSERT_EQ(plain_width.kind, describe::Kind::kEither);
  EXPECT_EQ(plain_width.what, forge::kWideCounts);
  EXPECT_EQ(plain_width.children[1].children[0].kind, describe::Kind::kBytes);
  ASSERT_EQ(forms.children[1].children.size(), 4u);
  EXPECT_EQ(forms.children[1].children[3].sized_by, "compressed_size");
  EXPECT_EQ(describe::min_size(*chunk), 3u);

  // The stored data file: the plain bytes only when no block set follows; the data file's table.
  const describe::Node* stored_file = find_structure(all, "forge::StoredDataFile");
  ASSERT_NE(stored_file, nullptr);
  EXPECT_EQ(stored_file->children.back().kind, describe::Kind::kEither);
  EXPECT_EQ(stored_file->children.back().children[0].children[0].kind, describe::Kind::kRestBytes);
  EXPECT_TRUE(stored_file->children.back().children[1].children.empty());
  const describe::Node* data_file = find_structure(all, "forge::DataFile");
  ASSERT_NE(data_file, nullptr);
  EXPECT_EQ(data_file->children[0].kind, describe::Kind::kHeads);
  // then version 26's x bytes and layout 1's m bytes, each under its condition (FORGE.md 7)
  EXPECT_EQ(data_file->children[1].what, forge::kVersionTail);
  EXPECT_EQ(data_file->children[2].what, forge::kTableTail);
  EXPECT_EQ(data_file->children[3].kind, describe::Kind::kBodies);
  EXPECT_EQ(data_file->children[3].what, "entries");

  // The reference has every container structure, after its own heading.
  std::string md = schema::format_markdown();
  std::size_t part = md.find("## Containers (`.forge` archives)");
  ASSERT_NE(part, std::string::npos);
  for (const describe::Node* s : all) EXPECT_GT(md.find("### `" + s->type + "`"), part) << s->type;
  EXPECT_NE(md.find("when max_size != 0: the fields marked (1)"), std::string::npos);
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
  // Every structure appears once in the reference.
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
  // The containers: a whole archive, a data file's stored bytes, a decompressed data file.
  for (const char* t :
       {"forge_archive", "forge_table_section_at", "forge_stored_data_file", "forge_block_set", "forge_data_file"}) {
    EXPECT_NE(ksy.find(std::string("  ") + t + ":\n"), std::string::npos) << t;
    EXPECT_NE(hexpat.find(std::string("struct ") + t + " {"), std::string::npos) << t;
  }
  EXPECT_NE(hexpat.find("using forge_table_section_at;\nstruct forge_table_section_at {"), std::string::npos);
  EXPECT_EQ(schema::kaitai_type_name("ac2::LODSelectorInstance"), "ac2_lod_selector_instance");
  EXPECT_EQ(schema::kaitai_type_name("sws::LODDescriptor"), "sws_lod_descriptor");
}

}  // namespace
}  // namespace anvil
