// Malformed archives (FORGE.md 1, 2): each check refuses with its own one-line error naming the archive
// offset, and nothing is read past it.
#include <absl/strings/str_format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "gen/forge.hpp"
#include "model/forge/archive.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"

namespace anvil::forge {
namespace {

using ::testing::HasSubstr;

struct Fixture {
  std::vector<u8> bytes;
  gen::ForgeRecord record;
  Archive archive;
};

Fixture make(u64 datafiles = 5, u64 block_size = 256) {
  Fixture f;
  f.bytes = gen::generate_forge({Game::ac2, datafiles, 3, 11, block_size}, &f.record);
  f.archive = *read_archive(f.bytes);
  return f;
}

template <class T>
void put(std::vector<u8>& bytes, u64 offset, T value) {
  std::memcpy(&bytes[offset], &value, sizeof value);
}

std::string archive_error(std::span<const u8> bytes) {
  auto a = read_archive(bytes);
  EXPECT_FALSE(a.ok());
  return a.ok() ? "" : std::string(a.status().message());
}

// The first data file stored in `form`.
std::size_t first_of(const Fixture& f, gen::StoredForm form) {
  for (std::size_t i = 0; i < f.record.files.size(); ++i)
    if (f.record.files[i].form == form) return i;
  ADD_FAILURE() << "no data file of that form";
  return 0;
}

// The error of reading data file `i` (stored form, then decompression).
std::string data_file_error(std::span<const u8> bytes, std::size_t i) {
  auto archive = read_archive(bytes);
  if (!archive.ok()) return "archive: " + std::string(archive.status().message());
  auto read = read_data_file(bytes, *archive, i, archive_checksums(bytes, *archive).verdict);
  EXPECT_FALSE(read.ok());
  return read.ok() ? "" : std::string(read.status().message());
}

// Where the first block set of a compressed data file starts.
u64 first_set_at(const Fixture& f, std::size_t i) {
  auto stored = read_stored(f.bytes, f.archive, i);
  EXPECT_TRUE(stored.ok());
  return f.archive.files[i].stored_offset() + 4 + 8 * stored->prefix.size();
}

TEST(ForgeMalformed, Version28IsRefusedNamingIt) {
  Fixture f = make();
  put<u32>(f.bytes, 9, 28);
  std::string e = archive_error(f.bytes);
  EXPECT_THAT(e, HasSubstr("offset 0x9: "));
  EXPECT_THAT(e, HasSubstr("version must be 25, 26 or 27"));
  EXPECT_THAT(e, HasSubstr("found 28"));
}

TEST(ForgeMalformed, BadMagic) {
  Fixture f = make();
  f.bytes[0] = 'S';
  EXPECT_EQ(archive_error(f.bytes), "not a .forge archive (it does not begin with \"scimitar\")");
}

TEST(ForgeMalformed, FirstHeaderPastTheEnd) {
  Fixture f = make();
  put<u64>(f.bytes, 0x0D, f.bytes.size() + 100);
  EXPECT_THAT(archive_error(f.bytes), HasSubstr("offset 0x15: unknown_1: needs"));
}

TEST(ForgeMalformed, TruncatedTables) {
  Fixture f = make();
  const SectionAt& s = f.archive.sections[0];
  // Cut the file in the middle of the first index table.
  std::vector<u8> cut(f.bytes.begin(), f.bytes.begin() + static_cast<std::ptrdiff_t>(s.table.index_table + 20));
  // The data files no longer fit: the section's count is refused before its tables are looked at.
  EXPECT_THAT(archive_error(cut),
              HasSubstr(absl::StrFormat("offset 0x%x: count 3: more data files than fit", s.offset)));
  // Room for the data files' headers, but not for the index table where the section says it is.
  std::vector<u8> far = f.bytes;
  put<i64>(far, s.offset + TableLayout::of({}).index_table_at, static_cast<i64>(far.size() - 47));
  std::string e = archive_error(far);
  EXPECT_THAT(e, HasSubstr(absl::StrFormat("offset 0x%x: ", s.offset + TableLayout::of({}).index_table_at)));
  EXPECT_THAT(e, HasSubstr("index table of 3 entries"));
  std::vector<u8> names = f.bytes;
  put<i64>(names, s.offset + TableLayout::of({}).name_table_at, -5);
  EXPECT_THAT(archive_error(names), HasSubstr(absl::StrFormat("offset 0x%x: name table of 3 entries at -5",
                                                              s.offset + TableLayout::of({}).name_table_at)));
  // And in the middle of the first section.
  std::vector<u8> cut2(f.bytes.begin(), f.bytes.begin() + static_cast<std::ptrdiff_t>(s.offset + 10));
  EXPECT_THAT(archive_error(cut2), HasSubstr("table section offset"));
}

TEST(ForgeMalformed, SectionCycle) {
  Fixture f = make();
  ASSERT_EQ(f.archive.sections.size(), 2u);
  put<i64>(f.bytes, f.archive.sections[1].offset + TableLayout::of({}).next_at,
           static_cast<i64>(f.archive.sections[0].offset));
  std::string e = archive_error(f.bytes);
  EXPECT_THAT(e,
              HasSubstr(absl::StrFormat("offset 0x%x: ", f.archive.sections[1].offset + TableLayout::of({}).next_at)));
  EXPECT_THAT(e, HasSubstr("a cycle of sections"));
}

TEST(ForgeMalformed, HugeAndNegativeCounts) {
  Fixture f = make();
  const u64 at = f.archive.sections[0].offset;
  put<i32>(f.bytes, at, 0x7FFFFFFF);
  std::string e = archive_error(f.bytes);
  EXPECT_THAT(e, HasSubstr(absl::StrFormat("offset 0x%x: count 2147483647: more data files than fit", at)));
  put<i32>(f.bytes, at, -2);
  EXPECT_THAT(archive_error(f.bytes), HasSubstr(absl::StrFormat("offset 0x%x: count must not be negative", at)));
  // A count that fits the data file bound but not its index table.
  put<i32>(f.bytes, at, 3);
  put<i64>(f.bytes, at + TableLayout::of({}).index_table_at, static_cast<i64>(f.bytes.size() - 20));
  EXPECT_THAT(archive_error(f.bytes), HasSubstr("index table of 3 entries"));
}

TEST(ForgeMalformed, DataFileOutsideTheFile) {
  Fixture f = make();
  const DataFileAt& d = f.archive.files[1];
  put<u32>(f.bytes, d.index_entry_offset + 12, 0xFFFFFFF0u);
  std::string e = archive_error(f.bytes);
  EXPECT_THAT(e, HasSubstr(absl::StrFormat("offset 0x%x: ", d.index_entry_offset)));
  EXPECT_THAT(e, HasSubstr("must lie inside the file"));
}

TEST(ForgeMalformed, OverlappingDataFiles) {
  Fixture f = make();
  const DataFileAt& a = f.archive.files[0];
  const DataFileAt& b = f.archive.files[1];
  put<u64>(f.bytes, b.index_entry_offset, a.index.offset + 8);
  std::string e = archive_error(f.bytes);
  EXPECT_THAT(e, HasSubstr(absl::StrFormat("offset 0x%x: ", b.index_entry_offset)));
  EXPECT_THAT(e, HasSubstr("overlaps data file"));
}

TEST(ForgeMalformed, BadCompressionId) {
  Fixture f = make();
  std::size_t i = first_of(f, gen::StoredForm::two_block_sets);
  u64 set = first_set_at(f, i);
  f.bytes[set + 10] = 3;
  std::string e = data_file_error(f.bytes, i);
  EXPECT_THAT(e, HasSubstr(absl::StrFormat("offset 0x%x: ", set + 10)));
  EXPECT_THAT(e, HasSubstr("compression must be 0, 1 (LZO1X), 2 (LZO2A) or 5 (LZO1C) (found 3)"));
  EXPECT_THAT(e, HasSubstr("DataFile_000"));
}

TEST(ForgeMalformed, OodleIsRefusedByName) {
  Fixture f = make();
  std::size_t i = first_of(f, gen::StoredForm::two_block_sets);
  u64 set = first_set_at(f, i);
  for (u8 id : {4, 7, 8}) {
    f.bytes[set + 10] = id;
    std::string e = data_file_error(f.bytes, i);
    EXPECT_THAT(e, HasSubstr(absl::StrFormat("offset 0x%x: ", set + 10)));
    EXPECT_THAT(
        e, HasSubstr(absl::StrFormat(
               "compression 4, 7 and 8 are Oodle (later games), which anvilrt does not decompress (found %d)", id)));
  }
}

TEST(ForgeMalformed, BlockClaimingMoreThanItsBytes) {
  Fixture f = make();
  std::size_t i = first_of(f, gen::StoredForm::two_block_sets);
  u64 set = first_set_at(f, i);
  // The first block's sizes: [u16 uncompressed][u16 compressed] after the 15-byte header and the count.
  const u64 head = set + BlockSet::min_wire_size + 2;
  u16 compressed;
  std::memcpy(&compressed, &f.bytes[head + 2], 2);
  ASSERT_LT(compressed, 255u);  // 65535 is more than 255 compressed bytes can make
  put<u16>(f.bytes, head, 0xFFFF);
  std::string e = data_file_error(f.bytes, i);
  EXPECT_THAT(e, HasSubstr("set 0 block 0"));
  EXPECT_THAT(e, HasSubstr("cannot decompress to the 65535 claimed"));
}

TEST(ForgeMalformed, BlockTableLongerThanTheBytes) {
  Fixture f = make();
  std::size_t i = first_of(f, gen::StoredForm::two_block_sets);
  u64 set = first_set_at(f, i);
  put<u16>(f.bytes, set + BlockSet::min_wire_size, 0xFFFF);  // 65535 blocks
  std::string e = data_file_error(f.bytes, i);
  EXPECT_THAT(e, HasSubstr(absl::StrFormat("offset 0x%x: ", set + BlockSet::min_wire_size)));
  EXPECT_THAT(e, HasSubstr("count must fit in the bytes left"));
}

TEST(ForgeMalformed, WrongDecompressedSize) {
  Fixture f = make();
  std::size_t i = first_of(f, gen::StoredForm::two_block_sets);
  u64 set = first_set_at(f, i);
  const u64 head = set + BlockSet::min_wire_size + 2;
  u16 uncompressed;
  std::memcpy(&uncompressed, &f.bytes[head], 2);
  put<u16>(f.bytes, head, static_cast<u16>(uncompressed - 1));
  std::string e = data_file_error(f.bytes, i);
  EXPECT_THAT(e, HasSubstr("set 0 block 0: lzo1x data decompresses to more than its stated"));
  put<u16>(f.bytes, head, static_cast<u16>(uncompressed + 1));
  EXPECT_THAT(data_file_error(f.bytes, i), HasSubstr("set 0 block 0: lzo1x data decompresses to"));
}

TEST(ForgeMalformed, ChunkKindOtherThan0Or1) {
  Fixture f = make();
  std::size_t i = first_of(f, gen::StoredForm::chunks);
  u64 chunk = first_set_at(f, i) + BlockSet::min_wire_size;
  f.bytes[chunk] = 7;
  std::string e = data_file_error(f.bytes, i);
  EXPECT_THAT(e, HasSubstr(absl::StrFormat("offset 0x%x: ", chunk)));
  EXPECT_THAT(e, HasSubstr("chunk kind must be 00 or 01 (found 7)"));
}

TEST(ForgeMalformed, SecondBlockSetMissing) {
  Fixture f = make();
  std::size_t i = first_of(f, gen::StoredForm::two_block_sets);
  auto stored = read_stored(f.bytes, f.archive, i);
  ASSERT_TRUE(stored.ok());
  std::vector<BlockAt> layout = block_layout(*stored, f.archive.files[i].stored_offset());
  BlockAt last;
  for (const BlockAt& b : layout)
    if (b.set == 0) last = b;
  u64 second = last.stored_offset + 4 + stored->first->blocks[last.block].stored.bytes.size();
  f.bytes[second] ^= 0xFF;
  std::string e = data_file_error(f.bytes, i);
  EXPECT_THAT(e, HasSubstr(absl::StrFormat("offset 0x%x: ", second)));
  EXPECT_THAT(e, HasSubstr("compression magic"));
}

TEST(ForgeMalformed, PlainDataFileHoldingTheMagic) {
  Fixture f = make();
  std::size_t i = first_of(f, gen::StoredForm::plain);
  u64 at = f.archive.files[i].stored_offset() + f.archive.files[i].index.size - 10;
  put<u64>(f.bytes, at, BlockSet::kMagic);
  std::string e = data_file_error(f.bytes, i);
  EXPECT_THAT(e, HasSubstr(absl::StrFormat("offset 0x%x: ", at)));
  EXPECT_THAT(e, HasSubstr("must not hold the compression magic"));
}

TEST(ForgeMalformed, EntryTableChecks) {
  Fixture f = make();
  auto read = read_data_file(f.bytes, f.archive, 0, archive_checksums(f.bytes, f.archive).verdict);
  ASSERT_TRUE(read.ok());
  std::vector<u8> decoded(read->decoded.bytes.begin(), read->decoded.bytes.end());
  std::vector<u8> longer = decoded;
  longer.push_back(0);
  EXPECT_THAT(std::string(parse_data_file(longer).status().message()), HasSubstr("1 byte after the last body"));
  std::vector<u8> many = decoded;
  put<u16>(many, 0, 0xFFFF);
  EXPECT_THAT(std::string(parse_data_file(many).status().message()),
              HasSubstr("decompressed offset 0x0: entries: count must fit"));
  // The last resource's flag: after the table, [u32 m][m], then [u32 type][u32 size][u32 n][name]; the
  // error names that entry by its index and its name, read before the flag.
  auto file = parse_data_file(decoded);
  ASSERT_TRUE(file.ok());
  const std::size_t last = file->entries.size() - 1;
  ASSERT_GE(last, 1u);
  u64 flag_at = body_layout(*file)[last].offset - 1;
  ASSERT_EQ(file->entries[last].flag, 0);
  const std::vector<u8>& name = file->entries[last].name.bytes;
  decoded[flag_at] = 2;
  std::string e(parse_data_file(decoded).status().message());
  EXPECT_THAT(
      e, HasSubstr(absl::StrFormat("decompressed offset 0x%x: entry %d '%s': ", flag_at, last, printable_name(name))));
  EXPECT_THAT(e, HasSubstr("resource flag must be 0 or 1 (found 2)"));
}

}  // namespace
}  // namespace anvil::forge
