// The container declarations of model/forge (FORGE.md 1-3): each fixed structure measures as FORGE.md
// sizes it (through the byte writer: the declaration is the one place the layout is written), and every
// structure reads back from its bytes and its JSON to the same bytes.
#include <gtest/gtest.h>
#include <rapidjson/document.h>

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
std::vector<u8> bytes_of(const T& value) {
  std::vector<u8> out;
  encode(value, out);
  return out;
}

template <class T>
std::size_t measured() {
  return bytes_of(T{}).size();
}

TEST(ForgeLayout, FixedSizesAreWhatTheDeclarationsWrite) {
  EXPECT_EQ(measured<DataHeader>(), DataHeader::wire_size);
  EXPECT_EQ(measured<TableSection>(), TableSection::wire_size);
  EXPECT_EQ(measured<IndexEntry>(), IndexEntry::wire_size);
  EXPECT_EQ(measured<NameEntry>(), NameEntry::wire_size);
  EXPECT_EQ(measured<DataFileHeader>(), DataFileHeader::wire_size);
  EXPECT_EQ(measured<ArchiveHeader>(), ArchiveHeader::min_wire_size);  // H = 0x15: nothing kept
  // FORGE.md's numbers, once, here: the declarations must agree with the contract.
  EXPECT_EQ(DataHeader::wire_size, 32u + 8u);
  EXPECT_EQ(TableSection::wire_size, 48u);
  EXPECT_EQ(IndexEntry::wire_size, 16u);
  EXPECT_EQ(NameEntry::wire_size, 188u);
  EXPECT_EQ(DataFileHeader::wire_size, 440u);
  EXPECT_EQ(ArchiveHeader::min_wire_size, 0x15u);
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
  std::vector<u8> bytes = cat({{'s', 'c', 'i', 'm', 'i', 't', 'a', 'r'}, {0x07}, le(26, 4), le(0x15, 8)});
  ByteReader reader(bytes);
  ArchiveHeader h;
  h.serialize(reader, 0);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.failure()->offset, 9u);
  EXPECT_NE(reader.failure()->what().find("version must be 25"), std::string::npos);
  EXPECT_NE(reader.failure()->what().find("found 26"), std::string::npos);
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
