// The container declarations of model/forge (FORGE.md 1-3): each fixed structure measures as FORGE.md
// sizes it (through the byte writer: the declaration is the one place the layout is written), and every
// structure reads back from its bytes and its JSON to the same bytes.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

#include "model/forge/archive.hpp"
#include "model/forge/archive_header.hpp"
#include "model/forge/block_set.hpp"
#include "model/forge/data_file.hpp"
#include "model/forge/data_file_header.hpp"
#include "model/forge/data_header.hpp"
#include "model/forge/index_entry.hpp"
#include "model/forge/name_entry.hpp"
#include "model/forge/stored_data_file.hpp"
#include "model/forge/table_section.hpp"
#include "reader/byte_reader.hpp"
#include "reader/json_reader.hpp"
#include "writer/encode.hpp"
#include "writer/json_writer.hpp"

namespace anvil::forge {
namespace {

template <class T>
std::vector<u8> bytes_of(const T& value, unsigned version = 0) {
  std::vector<u8> out;
  encode(value, out, version);
  return out;
}

template <class T>
std::size_t measured(ForgeVariant v = {}) {
  return bytes_of(T{}, v.code()).size();
}

// The sizes and offsets TableLayout takes from the declarations (model/forge/variant.hpp FieldWalker) are
// what the byte writer writes, and FORGE.md's numbers (sections 1 and 7), once, here.
TEST(ForgeLayout, FixedSizesAreWhatTheDeclarationsWrite) {
  for (u32 version : {25u, 26u, 27u}) {
    SCOPED_TRACE(version);
    const ForgeVariant v{version};
    const TableLayout& t = TableLayout::of(v);
    EXPECT_EQ(measured<DataHeader>(v), t.data_header);
    EXPECT_EQ(measured<TableSection>(v), t.section);
    EXPECT_EQ(measured<IndexEntry>(v), t.index_entry);
    EXPECT_EQ(measured<NameEntry>(v), t.name_entry);
    EXPECT_EQ(t.data_header, (v.archive == 27) ? 36u + 8u : 32u + 8u);
    EXPECT_EQ(t.first_section_at, (v.archive == 27) ? 36u : 32u);
    EXPECT_EQ(t.section, 48u);
    EXPECT_EQ(t.index_table_at, 8u);
    EXPECT_EQ(t.next_at, 16u);
    EXPECT_EQ(t.name_table_at, 32u);
    EXPECT_EQ(t.index_entry, (v.archive == 27) ? 20u : 16u);
    EXPECT_EQ(t.name_entry, (v.archive == 27) ? 192u : 188u);
    EXPECT_EQ(t.file_header, (v.archive == 27) ? 0u : 440u);
  }
  EXPECT_EQ(measured<DataFileHeader>(), 440u);
  EXPECT_EQ(measured<ArchiveHeader>(), ArchiveHeader::min_wire_size);  // H = 0x15: nothing kept
  EXPECT_EQ(ArchiveHeader::min_wire_size, 0x15u);
}

// Version 27's index entry holds a 64-bit id (FORGE.md 7): its bytes read back to the same id, and in
// JSON it is written with 16 hex digits; version 25's with 8.
TEST(ForgeLayout, Version27IdsAre64Bit) {
  IndexEntry e;
  e.offset = 0x1122;
  e.file_id.value = 0x0123456789abcdefULL;
  e.size = 7;
  const ForgeVariant v27{27};
  std::vector<u8> bytes = bytes_of(e, v27.code());
  ASSERT_EQ(bytes.size(), 20u);
  IndexEntry back;
  ByteReader reader(bytes);
  serialize_root(reader, back, v27.code());
  ASSERT_TRUE(reader.ok());
  EXPECT_EQ(back.file_id.value, e.file_id.value);
  EXPECT_EQ(format_id(back.file_id.value, v27), "0x0123456789abcdef");
  EXPECT_EQ(format_id(0x1234, ForgeVariant{25}), "0x00001234");
  e.file_id.value = 0x89abcdef;
  EXPECT_EQ(bytes_of(e).size(), 16u);
}

template <class T>
rapidjson::Document to_dom(const T& value) {
  rapidjson::Document doc;
  auto generate = [&](rapidjson::Document& handler) {
    JsonWriter<rapidjson::Document> writer(handler);
    writer.start_object();
    writer.fields(value);
    writer.end_object();
    return true;
  };
  doc.Populate(generate);
  return doc;
}

// bytes -> model -> bytes and model -> JSON -> model -> bytes, for a structure read whole.
template <class T>
void expect_round_trip(const std::vector<u8>& bytes, T value = {}) {
  ByteReader reader(bytes);
  value.serialize(reader, 0);
  ASSERT_TRUE(reader.ok()) << reader.failure()->message();
  EXPECT_EQ(reader.remaining(), 0u);
  EXPECT_EQ(bytes_of(value), bytes);

  rapidjson::Document doc = to_dom(value);
  T back{};
  if constexpr (requires { back.compressed; }) back.compressed = value.compressed;
  JsonReader json;
  json.fields(doc, back);
  ASSERT_TRUE(json.ok()) << json.failure()->message();
  EXPECT_EQ(bytes_of(back), bytes);
}

std::vector<u8> cat(std::initializer_list<std::vector<u8>> parts) {
  std::vector<u8> out;
  for (const auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}
std::vector<u8> le(u64 v, std::size_t n) {
  std::vector<u8> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<u8>(v >> (8 * i));
  return out;
}

TEST(ForgeLayout, ArchiveHeaderKeepsTheBytesUpToH) {
  std::vector<u8> bytes =
      cat({{'s', 'c', 'i', 'm', 'i', 't', 'a', 'r'}, {0x07}, le(25, 4), le(0x15 + 3, 8), {1, 2, 3}});
  expect_round_trip<ArchiveHeader>(bytes);
}

TEST(ForgeLayout, ArchiveHeaderRefusesOtherVersionsNamingThem) {
  std::vector<u8> bytes = cat({{'s', 'c', 'i', 'm', 'i', 't', 'a', 'r'}, {0x07}, le(24, 4), le(0x15, 8)});
  ByteReader reader(bytes);
  ArchiveHeader h;
  h.serialize(reader, 0);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.failure()->offset, 9u);
  EXPECT_NE(reader.failure()->what().find("version must be 25, 26 or 27"), std::string::npos);
  EXPECT_NE(reader.failure()->what().find("found 24"), std::string::npos);
}

TEST(ForgeLayout, NamesShowAsTextOrHex) {
  NameEntry e;
  std::memcpy(e.name.bytes.data(), "level_01", 8);
  rapidjson::Document doc = to_dom(e);
  EXPECT_STREQ(doc["name"].GetString(), "level_01");
  e.name.bytes[100] = 0x41;  // a byte after the NUL: not plain text, so hex
  expect_round_trip<NameEntry>(bytes_of(e));
}

TEST(ForgeLayout, BlockSetsInBothForms) {
  BlockSet blocks;
  blocks.compression = 2;
  blocks.max_size = 0x8000;
  blocks.blocks.resize(2);
  blocks.blocks[0].uncompressed_size = 5;
  blocks.blocks[0].checksum = 0x11223344;
  blocks.blocks[0].stored.bytes = {1, 2, 3};
  blocks.blocks[1].uncompressed_size = 2;
  blocks.blocks[1].stored.bytes = {9, 9};
  std::vector<u8> b = bytes_of(blocks);
  EXPECT_EQ(b.size(), 15u + 2 + 2 * 4 + (4 + 3) + (4 + 2));
  expect_round_trip<BlockSet>(b);

  BlockSet chunks;
  chunks.chunks.resize(2);
  chunks.chunks[0].stored.bytes = {5, 6};
  chunks.chunks[1].kind = Chunk::kCompressed;
  chunks.chunks[1].uncompressed_size = 40;
  chunks.chunks[1].checksum = 7;
  chunks.chunks[1].stored.bytes = {1, 2, 3, 4};
  std::vector<u8> c = bytes_of(chunks);
  EXPECT_EQ(c.size(), 15u + (1 + 2 + 2) + (1 + 12 + 4));
  expect_round_trip<BlockSet>(c);
}

TEST(ForgeLayout, ChunkKindsOtherThan0And1AreRefused) {
  BlockSet chunks;
  chunks.chunks.resize(1);
  std::vector<u8> c = bytes_of(chunks);
  c[15] = 2;
  ByteReader reader(c);
  BlockSet back;
  back.serialize(reader, 0);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.failure()->offset, 15u);
  EXPECT_NE(reader.failure()->what().find("chunk kind must be 00 or 01"), std::string::npos);
}

TEST(ForgeLayout, DataFileEntryTable) {
  DataFile f;
  f.unknown.bytes = {0xAA};
  f.entries.resize(2);
  f.entries[0].file_id.value = 0x1234;
  f.entries[0].name.bytes = {'a', 'b'};
  f.entries[0].body.bytes = {1, 2, 3};
  f.entries[1].flag = 1;
  f.entries[1].flag_records.resize(2);
  f.entries[1].body.bytes = {4};
  std::vector<u8> b = bytes_of(f);
  EXPECT_EQ(b.size(), 2u + 2 * 10 + 4 + 1 + (13 + 2 + 3) + (13 + 7 + 24 + 1));
  expect_round_trip<DataFile>(b);
}

TEST(ForgeLayout, StoredDataFilePlainAndCompressed) {
  StoredDataFile plain;
  plain.prefix.resize(1);
  plain.plain.bytes = {1, 2, 3};
  expect_round_trip<StoredDataFile>(bytes_of(plain));

  StoredDataFile two;
  two.prefix.resize(2);
  two.first.emplace();
  two.first->max_size = 1;
  two.first->blocks.resize(1);
  two.first->blocks[0].uncompressed_size = 1;
  two.first->blocks[0].stored.bytes = {7};
  two.second.emplace();
  two.second->chunks.resize(1);
  two.second->chunks[0].stored.bytes = {8};
  StoredDataFile loading;
  loading.compressed = true;
  expect_round_trip<StoredDataFile>(bytes_of(two), loading);
}

}  // namespace
}  // namespace anvil::forge
