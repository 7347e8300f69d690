// The edit path of FORGE.md 4: new decompressed bytes for a data file are re-split on its block
// boundaries, changed blocks re-compressed, and the data file written in place or moved to the end;
// read back, it holds the new bytes and every other data file is byte-identical.
#include <absl/strings/str_format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "gen/forge.hpp"
#include "pipeline/forge_rewrite.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "tests/test_support.hpp"

namespace anvil::forge {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using ::testing::StartsWith;

struct Edited {
  std::vector<u8> before, after;
  Archive a, b;
  std::vector<ChangeReport> reports;
};

// Applies `changes` to `before` and checks the result the way rewrite_file does, plus: every untouched
// data file keeps its place and bytes, every changed one decompresses to its new bytes.
Edited apply(std::vector<u8> before, std::vector<DataFileChange> changes) {
  Edited e;
  e.before = std::move(before);
  VectorSink sink;
  auto reports = rewrite(e.before, changes, sink);
  EXPECT_TRUE(reports.ok()) << reports.status();
  if (!reports.ok()) return e;
  e.reports = *reports;
  e.after = std::move(sink.bytes());
  e.a = *read_archive(e.before);
  const ChecksumVerdict checksums = archive_checksums(e.before, e.a).verdict;
  EXPECT_TRUE(check_rewrite(e.before, e.after, changes, false, nullptr, nullptr, checksums).ok());
  auto b = read_archive(e.after);
  EXPECT_TRUE(b.ok()) << b.status();
  e.b = *b;
  for (std::size_t i = 0; i < e.a.files.size(); ++i) {
    auto change = std::find_if(changes.begin(), changes.end(), [&](auto& c) { return c.index == i; });
    if (change != changes.end()) {
      auto read = read_data_file(e.after, e.b, i, checksums);
      EXPECT_TRUE(read.ok()) << read.status();
      if (read.ok()) {
        EXPECT_TRUE(std::ranges::equal(read->decoded.bytes, change->decoded)) << "data file " << i;
      }
    } else {
      const DataFileAt& x = e.a.files[i];
      const DataFileAt& y = e.b.files[i];
      EXPECT_EQ(x.index.offset, y.index.offset);
      EXPECT_TRUE(std::equal(e.before.begin() + x.index.offset, e.before.begin() + x.end(),
                             e.after.begin() + y.index.offset, e.after.begin() + y.end()))
          << "data file " << i;
    }
  }
  // Still a lossless archive.
  auto again = round_trip(e.after);
  EXPECT_TRUE(again.ok() && *again == e.after);
  return e;
}

// Data file i decompressed, its checksums unchecked (the verdict n/a).
std::vector<u8> decoded_of(std::span<const u8> bytes, std::size_t i) {
  Archive a = *read_archive(bytes);
  auto read = read_data_file(bytes, a, i, ChecksumVerdict{});
  return {read->decoded.bytes.begin(), read->decoded.bytes.end()};
}

// Bytes of the first entry's body that hold no object (the generator's filler at its start would do,
// but any change of an object's bytes is as good for the container: the test only needs a place).
u64 body_start(std::span<const u8> decoded) {
  auto file = parse_data_file(decoded);
  EXPECT_TRUE(file.ok());
  return body_layout(*file)[0].offset;
}

TEST(ForgeEdit, SmallerDataFileStaysInPlaceAndIsPadded) {
  gen::ForgeRecord record;
  std::vector<u8> bytes = gen::generate_forge({Game::ac2, 5, 6, 3, 512}, &record);
  for (std::size_t i : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{4}}) {  // every compressed form
    std::vector<u8> decoded = decoded_of(bytes, i);
    // Zeros over the second half of the body: more compressible, so the data file shrinks.
    u64 start = body_start(decoded);
    std::fill(decoded.begin() + static_cast<std::ptrdiff_t>(start + (decoded.size() - start) / 2), decoded.end(), 0);
    Edited e = apply(bytes, {{i, decoded}});
    ASSERT_EQ(e.reports.size(), 1u);
    const ChangeReport& r = e.reports[0];
    EXPECT_FALSE(r.placement.moved) << i;
    EXPECT_GT(r.blocks.recompressed, 0u);
    EXPECT_LT(r.blocks.recompressed, r.blocks.blocks) << "unchanged blocks keep their bytes";
    const DataFileAt& old = e.a.files[i];
    const DataFileAt& now = e.b.files[i];
    EXPECT_EQ(now.index.offset, old.index.offset);
    ASSERT_LT(now.index.size, old.index.size);
    EXPECT_EQ(e.after.size(), e.before.size());
    // The rest of the old place: the byte that padded it (the generator pads after odd data files with CC).
    u8 padding = old.end() < e.before.size() ? e.before[old.end()] : 0;
    for (u64 k = now.end(); k < old.end(); ++k) ASSERT_EQ(e.after[k], padding) << "data file " << i << " at " << k;
    // raw_size follows the index size where it equalled it, and is kept where it did not.
    if (record.files[i].form == gen::StoredForm::block_set_then_chunks)
      EXPECT_EQ(now.name.raw_size, old.name.raw_size);
    else
      EXPECT_EQ(now.name.raw_size, now.index.size);
  }
}

TEST(ForgeEdit, UnchangedBlocksKeepStoredBytesAndChecksums) {
  std::vector<u8> bytes = gen::generate_forge({Game::ac2, 1, 8, 5, 256});
  std::vector<u8> decoded = decoded_of(bytes, 0);
  decoded[decoded.size() - 3] ^= 0x5A;  // the last block only
  Edited e = apply(bytes, {{0, decoded}});
  ASSERT_EQ(e.reports.size(), 1u);
  EXPECT_EQ(e.reports[0].blocks.recompressed, 1u);
  auto a = read_stored(e.before, e.a, 0);
  auto b = read_stored(e.after, e.b, 0);
  ASSERT_TRUE(a.ok() && b.ok());
  ASSERT_EQ(a->second->blocks.size(), b->second->blocks.size());
  for (std::size_t k = 0; k + 1 < a->second->blocks.size(); ++k) {
    EXPECT_EQ(a->second->blocks[k].stored.bytes, b->second->blocks[k].stored.bytes);
    EXPECT_EQ(a->second->blocks[k].checksum, b->second->blocks[k].checksum);
  }
  const ChecksumVerdict checksums = archive_checksums(e.after, e.b).verdict;
  EXPECT_EQ(checksums.name(), "adler32-0/stored");
  EXPECT_EQ(checksums.matched, checksums.blocks);
}

TEST(ForgeEdit, LargerDataFileMovesToTheEndAligned) {
  std::vector<u8> bytes = gen::generate_forge({Game::ac2, 5, 6, 4, 512});
  std::size_t i = 1;  // LZO2A chunks
  std::vector<u8> decoded = decoded_of(bytes, i);
  // Incompressible bytes over the body: the data file grows past its room.
  u64 x = 0x9E3779B97F4A7C15ull;
  for (u64 k = body_start(decoded); k < decoded.size(); ++k) {
    x ^= x << 13, x ^= x >> 7, x ^= x << 17;
    decoded[k] = static_cast<u8>(x);
  }
  Edited e = apply(bytes, {{i, decoded}});
  ASSERT_EQ(e.reports.size(), 1u);
  const Placement& p = e.reports[0].placement;
  EXPECT_TRUE(p.moved);
  const u64 alignment = data_file_alignment(e.a);
  EXPECT_GE(alignment, 16u);
  EXPECT_EQ(p.header_offset % alignment, 0u);
  EXPECT_GE(p.header_offset, e.before.size());
  EXPECT_EQ(e.b.files[i].index.offset, p.header_offset);
  EXPECT_EQ(e.after.size(), p.header_offset + TableLayout::of({}).file_header + p.stored_size);
  // Nothing else moved: the old place and everything up to the old end are as they were, but the tables.
  const DataFileAt& old = e.a.files[i];
  EXPECT_TRUE(std::equal(e.before.begin() + old.index.offset, e.before.begin() + old.end(),
                         e.after.begin() + old.index.offset));
  EXPECT_EQ(data_file_name(e.b.files[i]), data_file_name(old));
}

// The archive's last data file (nothing after it) grows where it is: the file grows with it.
TEST(ForgeEdit, TheLastDataFileGrowsInPlace) {
  std::vector<u8> bytes = gen::generate_forge({Game::ac2, 5, 6, 4, 512});
  const Archive a = *read_archive(bytes);
  std::size_t i = 0;
  for (std::size_t k = 1; k < a.files.size(); ++k)
    if (a.files[k].index.offset > a.files[i].index.offset) i = k;
  std::vector<u8> decoded = decoded_of(bytes, i);
  decoded.insert(decoded.end(), 5000, 0x5A);
  Edited e = apply(bytes, {{i, decoded}});
  ASSERT_EQ(e.reports.size(), 1u);
  const Placement& p = e.reports[0].placement;
  EXPECT_FALSE(p.moved);
  EXPECT_EQ(p.header_offset, a.files[i].index.offset);
  EXPECT_EQ(e.b.files[i].index.offset, a.files[i].index.offset);
  EXPECT_EQ(e.after.size(), std::max<u64>(bytes.size(), a.files[i].stored_offset() + p.stored_size));
}

TEST(ForgeEdit, PlainDataFileStaysPlain) {
  gen::ForgeRecord record;
  std::vector<u8> bytes = gen::generate_forge({Game::ac2, 5, 3, 6, 512}, &record);
  std::vector<u8> decoded = decoded_of(bytes, 2);
  decoded.back() ^= 1;
  Edited e = apply(bytes, {{2, decoded}});
  auto stored = read_stored(e.after, e.b, 2);
  ASSERT_TRUE(stored.ok());
  EXPECT_FALSE(stored->compressed);
  EXPECT_EQ(e.b.files[2].index.size, e.a.files[2].index.size);
}

TEST(ForgeEdit, TwoDataFilesAtOnce) {
  std::vector<u8> bytes = gen::generate_forge({Game::sws, 5, 4, 7, 300});
  std::vector<u8> d0 = decoded_of(bytes, 0), d4 = decoded_of(bytes, 4);
  d0[d0.size() / 2] ^= 0xFF;
  d4[d4.size() - 1] ^= 0xFF;
  apply(bytes, {{0, d0}, {4, d4}});
}

TEST(ForgeEdit, GrownAndShrunkDataFilesReadBack) {
  std::vector<u8> bytes = gen::generate_forge({Game::ac2, 5, 3, 8, 512});
  for (std::size_t i = 0; i < 5; ++i) {
    std::vector<u8> grown = decoded_of(bytes, i);
    grown.insert(grown.begin() + static_cast<std::ptrdiff_t>(grown.size() / 2), 1500, 0x42);
    Edited e = apply(bytes, {{i, grown}});
    ASSERT_EQ(e.reports.size(), 1u);
    std::vector<u8> shrunk = decoded_of(bytes, i);
    shrunk.erase(shrunk.begin() + 40, shrunk.begin() + 700);
    Edited f = apply(bytes, {{i, shrunk}});
    ASSERT_EQ(f.reports.size(), 1u);
    EXPECT_FALSE(f.reports[0].placement.moved) << i;
  }
}

// The checksum field of block k of data file i (archive offset).
u64 checksum_at(std::span<const u8> bytes, const Archive& a, std::size_t i, std::size_t k) {
  auto stored = read_stored(bytes, a, i);
  EXPECT_TRUE(stored.ok());
  return block_layout(*stored, a.files[i].stored_offset()).at(k).stored_offset;
}

TEST(ForgeEdit, ADamagedDataFileIsRefusedAndCarriedUntouched) {
  std::vector<u8> bytes = gen::generate_forge({Game::ac2, 2, 3, 9, 512});
  Archive a = *read_archive(bytes);
  const ChecksumVerdict before = archive_checksums(bytes, a).verdict;
  ASSERT_TRUE(before.rule.has_value());
  // One spoilt checksum: the rule still holds for all the other blocks, and that block is damaged.
  const u64 at = checksum_at(bytes, a, 0, 0);
  bytes[at] ^= 0xFF;
  const ArchiveChecksums checksums = archive_checksums(bytes, a);
  EXPECT_EQ(checksums.verdict.rule, before.rule);
  EXPECT_EQ(checksums.verdict.matched + 1, checksums.verdict.blocks);
  EXPECT_TRUE(checksums.damaged(0));
  EXPECT_FALSE(checksums.damaged(1));
  auto read = read_data_file(bytes, a, 0, checksums.verdict);
  ASSERT_FALSE(read.ok());
  EXPECT_TRUE(absl::IsDataLoss(read.status()));
  EXPECT_THAT(std::string(read.status().message()),
              AllOf(HasSubstr(absl::StrFormat("offset 0x%x: data file 0 'DataFile_000'", at)),
                    HasSubstr("set 0 block 0"), HasSubstr("damaged"), HasSubstr(checksums.describe())));

  std::vector<u8> decoded = decoded_of(bytes, 0);
  decoded.back() ^= 1;
  VectorSink sink;
  auto r = rewrite(bytes, std::vector<DataFileChange>{{0, decoded}}, sink);
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(absl::IsDataLoss(r.status()));
  // An edit of the other data file carries the damaged one byte for byte.
  std::vector<u8> other = decoded_of(bytes, 1);
  other.back() ^= 1;
  apply(bytes, {{1, other}});
}

TEST(ForgeEdit, RefusesToChecksumWithoutARule) {
  std::vector<u8> bytes = gen::generate_forge({Game::ac2, 2, 3, 9, 512});
  Archive a = *read_archive(bytes);
  const std::size_t blocks = archive_checksums(bytes, a).verdict.blocks;
  // Every block's checksum spoilt: no candidate matches more than half of them.
  std::size_t spoilt = 0;
  for (std::size_t i = 0; i < a.files.size(); ++i) {
    auto stored = read_stored(bytes, a, i);
    ASSERT_TRUE(stored.ok());
    if (!stored->compressed) continue;
    const BlockSet* sets[] = {stored->first ? &*stored->first : nullptr, stored->second ? &*stored->second : nullptr};
    for (const BlockAt& b : block_layout(*stored, a.files[i].stored_offset())) {
      const BlockSet& set = *sets[b.set];
      u64 at = b.stored_offset;  // a block's checksum field; a chunk's kind byte, then [u32][u32][u32 checksum]
      if (set.max_size == 0) {
        if (set.chunks[b.block].kind == Chunk::kPlain) continue;
        at += 1 + 8;
      }
      bytes[at] ^= 0xFF;
      ++spoilt;
    }
  }
  ASSERT_EQ(spoilt, blocks);
  const ChecksumVerdict checksums = archive_checksums(bytes, a).verdict;
  EXPECT_FALSE(checksums.rule.has_value());
  EXPECT_THAT(checksums.describe(), StartsWith("none ("));
  std::vector<u8> decoded = decoded_of(bytes, 0);
  decoded.back() ^= 1;
  VectorSink sink;
  auto r = rewrite(bytes, std::vector<DataFileChange>{{0, decoded}}, sink);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("the archive's checksum rule is none"));
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("a compressed data file cannot be changed"));
}

// A hostile archive whose name table lies over a data file's bytes reads exactly (the same bytes serve
// both), but a change to that data file would be undone by the name entries written after it: refused.
TEST(ForgeEdit, RefusesWhenATableLiesOverTheDataFile) {
  std::vector<u8> bytes = gen::generate_forge({Game::ac2, 2, 3, 11, 512});
  Archive a = *read_archive(bytes);
  const i64 name_table = static_cast<i64>(a.files[0].stored_offset() + 16);
  std::memcpy(bytes.data() + a.sections[0].offset + TableLayout::of({}).name_table_at, &name_table, sizeof name_table);
  ASSERT_TRUE(read_archive(bytes).ok());
  auto back = round_trip(bytes);
  ASSERT_TRUE(back.ok()) << back.status();
  EXPECT_EQ(*back, bytes);

  std::vector<u8> decoded = decoded_of(bytes, 0);
  decoded.back() ^= 1;
  VectorSink sink;
  auto r = rewrite(bytes, std::vector<DataFileChange>{{0, decoded}}, sink);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()),
              HasSubstr(absl::StrFormat("its stored bytes (0x%x..0x%x) and data file 0's name entry",
                                        a.files[0].stored_offset(), a.files[0].end())));
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("anvilrt does not rewrite such an archive"));
}

// The fuzz find behind these (tests/regress/forge): a table laid over another data file's stored bytes
// reads exactly, but a put that relists it, or changes an entry in it, would change that data file too.
TEST(ForgeTables, RefusesToRelistATableLyingOverAnotherDataFile) {
  std::vector<u8> bytes = gen::generate_forge({Game::ac2, 3, 3, 11, 512});
  Archive a = *read_archive(bytes);
  // The name table of the section that lists data file 1, moved into data file 0.
  const SectionAt& section = a.sections[a.files[1].section];
  ASSERT_GE(a.files[0].index.size, static_cast<u64>(section.table.count) * TableLayout::of({}).name_entry + 16);
  const i64 name_table = static_cast<i64>(a.files[0].stored_offset() + 16);
  std::memcpy(bytes.data() + section.offset + TableLayout::of({}).name_table_at, &name_table, sizeof name_table);
  ASSERT_TRUE(read_archive(bytes).ok());

  ArchiveEdit remove;
  remove.removed = {1};
  VectorSink sink;
  auto r = rewrite(bytes, remove, sink);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(std::string(r.status().message()), HasSubstr("shares bytes with another structure"));

  // A change of data file 1 rewrites its name entry, which lies inside data file 0.
  std::vector<u8> decoded = decoded_of(bytes, 1);
  decoded.push_back(0);
  VectorSink sink2;
  auto c = rewrite(bytes, std::vector<DataFileChange>{{1, decoded}}, sink2);
  ASSERT_FALSE(c.ok());
  EXPECT_THAT(std::string(c.status().message()), HasSubstr("its name entry"));
  EXPECT_THAT(std::string(c.status().message()), HasSubstr("data file 0's stored bytes"));
}

TEST(ForgeEdit, RewriteFileIsAtomicAndChecked) {
  test::TempDir dir;
  std::vector<u8> bytes = gen::generate_forge({Game::ac2, 3, 3, 10, 512});
  std::vector<u8> decoded = decoded_of(bytes, 0);
  decoded[decoded.size() / 2] ^= 0x11;
  std::string out = dir.path("out.forge");
  auto r = rewrite_file(bytes, std::vector<DataFileChange>{{0, decoded}}, out);
  ASSERT_TRUE(r.ok()) << r.status();
  std::vector<u8> written = test::read_file(out);
  EXPECT_EQ(decoded_of(written, 0), decoded);

  // Refused (no data file 7): no file appears, and nothing is left beside it.
  std::string refused = dir.path("refused.forge");
  EXPECT_FALSE(rewrite_file(bytes, std::vector<DataFileChange>{{7, decoded}}, refused).ok());
  EXPECT_FALSE(std::filesystem::exists(refused));
  std::size_t files = 0;
  for ([[maybe_unused]] const auto& f : std::filesystem::directory_iterator(dir.path(""))) ++files;
  EXPECT_EQ(files, 1u);
}

}  // namespace
}  // namespace anvil::forge

namespace anvil::forge {
namespace {

// Removes, adds and replaces through rewrite() and check_rewrite(): the written archive lists the kept
// data files in their order, then the new ones, each reading back to its bytes; the kept ones keep their
// stored bytes; the result is still lossless.
EditReport apply_edit(const std::vector<u8>& before, const ArchiveEdit& edit, std::vector<u8>& after) {
  VectorSink sink;
  auto report = rewrite(before, edit, sink);
  EXPECT_TRUE(report.ok()) << report.status();
  if (!report.ok()) return {};
  after = std::move(sink.bytes());
  Archive a = *read_archive(before);
  const ChecksumVerdict checksums = archive_checksums(before, a).verdict;
  auto s = check_rewrite(before, after, edit, false, nullptr, nullptr, checksums);
  EXPECT_TRUE(s.ok()) << s;
  auto again = round_trip(after);
  EXPECT_TRUE(again.ok() && *again == after);
  return *report;
}

TEST(ForgeTables, AddAppendsToTheLastSectionAndMovesItsTables) {
  for (Game game : {Game::ac2, Game::sws}) {
    std::vector<u8> bytes = gen::generate_forge({game, 5, 3, 21, 512});
    ArchiveEdit edit;
    edit.added.push_back({"Added_one", 0x1234, 0x77, decoded_of(bytes, 1), false});
    edit.added.push_back({"Added_two", 0x1235, 0x78, decoded_of(bytes, 2), true});
    std::vector<u8> after;
    EditReport r = apply_edit(bytes, edit, after);
    ASSERT_EQ(r.added.size(), 2u);
    EXPECT_TRUE(r.index_table_moved);  // the generator puts data files right after the tables
    Archive b = *read_archive(after);
    ASSERT_EQ(b.files.size(), 7u);
    EXPECT_EQ(data_file_name(b.files[5]), "Added_one");
    EXPECT_EQ(b.files[5].section, b.sections.size() - 1);
    EXPECT_EQ(b.files[6].index.file_id.value, 0x1235u);
    auto one = read_stored(after, b, 5);
    auto two = read_stored(after, b, 6);
    ASSERT_TRUE(one.ok() && two.ok());
    EXPECT_TRUE(one->compressed) << "like the archive's first compressed data file";
    EXPECT_FALSE(two->compressed) << "asked plain";
    EXPECT_EQ(b.files[5].index.offset % data_file_alignment(*read_archive(bytes)), 0u);
  }
}

TEST(ForgeTables, RemoveDropsEntriesAndLeavesTheBytes) {
  std::vector<u8> bytes = gen::generate_forge({Game::ac2, 5, 3, 22, 512});
  Archive a = *read_archive(bytes);
  ArchiveEdit edit;
  edit.removed = {1, 3};
  std::vector<u8> after;
  apply_edit(bytes, edit, after);
  Archive b = *read_archive(after);
  ASSERT_EQ(b.files.size(), 3u);
  EXPECT_EQ(data_file_name(b.files[1]), data_file_name(a.files[2]));
  EXPECT_EQ(after.size(), bytes.size());
  // The removed data file's bytes stay, unreferenced.
  EXPECT_TRUE(std::equal(bytes.begin() + a.files[1].index.offset, bytes.begin() + a.files[1].end(),
                         after.begin() + a.files[1].index.offset));
}

TEST(ForgeTables, RemoveThenAddGrowsTheTablesInPlace) {
  std::vector<u8> bytes = gen::generate_forge({Game::sws, 5, 3, 23, 300});
  Archive a = *read_archive(bytes);
  ArchiveEdit edit;
  edit.removed = {4};  // in the last section: its slot takes the new one
  edit.added.push_back({"Back_again", 7, 8, decoded_of(bytes, 4), false});
  edit.changes.push_back({0, decoded_of(bytes, 0)});
  edit.changes[0].decoded.push_back(0);  // not a data file any more: rewrite does not care
  std::vector<u8> after;
  EditReport r = apply_edit(bytes, edit, after);
  EXPECT_FALSE(r.index_table_moved);
  EXPECT_FALSE(r.name_table_moved);
  Archive b = *read_archive(after);
  EXPECT_EQ(b.sections.back().table.index_table, a.sections.back().table.index_table);
  EXPECT_EQ(b.files.size(), 5u);
}

TEST(ForgeTables, ReplacingARemovedDataFileIsRefused) {
  std::vector<u8> bytes = gen::generate_forge({Game::ac2, 3, 3, 24, 512});
  ArchiveEdit edit;
  edit.removed = {1};
  edit.changes.push_back({1, decoded_of(bytes, 1)});
  VectorSink sink;
  EXPECT_FALSE(rewrite(bytes, edit, sink).ok());
}

}  // namespace
}  // namespace anvil::forge
