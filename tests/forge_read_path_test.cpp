// The read path of data files and archives: data files decoded into views or buffers of their own (no
// copy of a plain one), entry tables read in place and compared with the skimming writer, `--game auto`
// judging a data file on its bodies, and `patch` finding an object key by its bytes.
#include <absl/strings/str_format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <mutex>
#include <set>
#include <tuple>

#include "gen/forge.hpp"
#include "reader/byte_reader.hpp"
#include "reader/forge/archive_levels.hpp"
#include "reader/forge/archive_reader.hpp"
#include "reader/forge/data_files.hpp"
#include "tests/test_support.hpp"
#include "writer/byte_writer.hpp"

namespace anvil::forge {
namespace {

using ::testing::HasSubstr;

TEST(ForgeReadPath, DataFilesDecodeWithoutCopies) {
  gen::ForgeRecord record;
  std::vector<u8> bytes = gen::generate_forge({Game::ac2, 4, 5, 3, 300}, &record);
  auto archive = read_archive(bytes);
  ASSERT_TRUE(archive.ok()) << archive.status();
  const ChecksumVerdict verdict = archive_checksums(bytes, *archive).verdict;
  ASSERT_TRUE(verdict.rule) << verdict.describe();
  for (std::size_t i = 0; i < archive->files.size(); ++i) {
    auto read = read_data_file(bytes, *archive, i, verdict);
    ASSERT_TRUE(read.ok()) << read.status();
    EXPECT_TRUE(std::ranges::equal(read->decoded.bytes, record.files[i].decoded)) << i;
    const bool in_archive = read->decoded.bytes.data() >= bytes.data() &&
                            read->decoded.bytes.data() + read->decoded.bytes.size() <= bytes.data() + bytes.size();
    // A plain data file is its stored bytes, viewed; a compressed one a buffer of its own.
    EXPECT_EQ(in_archive, record.files[i].compression == Compression::plain) << i;
    EXPECT_EQ(read->decoded.owned == nullptr, record.files[i].compression == Compression::plain) << i;
    // The copying read (repack's) decodes to the same bytes.
    auto copied = read_data_file(bytes, *archive, i, verdict, true);
    ASSERT_TRUE(copied.ok()) << copied.status();
    EXPECT_TRUE(std::ranges::equal(copied->decoded.bytes, record.files[i].decoded)) << i;
  }
}

// A fresh large buffer's pages are zeroed by the system as decompression first writes them; one given back
// is handed to the next data file that fits in it, and one held is never handed out twice.
TEST(ForgeReadPath, ALargeDecodeBufferGivenBackIsUsedAgain) {
  constexpr std::size_t kMiB = std::size_t{1} << 20;
  DecodeBuffer first = allocate_decode_buffer(40 * kMiB);
  u8* const at = first.get();
  std::memset(at, 0xab, 40 * kMiB);
  first.reset();
  DecodeBuffer second = allocate_decode_buffer(38 * kMiB);  // fits in the one given back
  EXPECT_EQ(second.get(), at);
  // Still written: not given back to the system (which maps a 40 MiB block afresh, zeroed).
  EXPECT_EQ(second[0], 0xab);
  EXPECT_EQ(second[38 * kMiB - 1], 0xab);
  EXPECT_GE(second.get_deleter().capacity, 38 * kMiB);
  DecodeBuffer third = allocate_decode_buffer(38 * kMiB);  // the kept one is held: a new one
  EXPECT_NE(third.get(), at);
  std::memset(third.get(), 0xcd, 38 * kMiB);          // the whole buffer is writable
  DecodeBuffer small = allocate_decode_buffer(4096);  // small ones come from the heap, never kept
  EXPECT_EQ(small.get_deleter().capacity, 0u);
}

// read_data_files_together (diff's read of a changed pair: blocks with the same stored bytes decompressed
// once) gives each side what read_data_file gives it alone: the same bytes and checked blocks, or the same
// error. Every stored form gen writes; B a copy of A (every block shared), damaged in one block of B only,
// and in the same block of both (a shared block that does not check out on either side).
TEST(ForgeReadPath, DataFilesReadTogetherAsAlone) {
  gen::ForgeRecord record;
  const std::vector<u8> clean = gen::generate_forge({Game::ac2, 5, 5, 3, 300}, &record);
  auto archive = read_archive(clean);
  ASSERT_TRUE(archive.ok()) << archive.status();
  const ChecksumVerdict verdict = archive_checksums(clean, *archive).verdict;
  for (std::size_t i = 0; i < archive->files.size(); ++i) {
    // The middle of the data file's stored bytes: inside a block's compressed bytes, or a plain data file's.
    const std::size_t middle = record.files[i].header_offset + 440 + record.files[i].stored_size / 2;
    std::vector<u8> damaged = clean;
    damaged[middle] ^= 0x20;
    const std::vector<u8> copy = clean;
    using Pair = std::tuple<const std::vector<u8>*, const std::vector<u8>*, const char*>;
    for (const auto& [x, y, what] :
         {Pair{&clean, &copy, "a copy"}, Pair{&clean, &damaged, "B damaged"}, Pair{&damaged, &damaged, "both"}}) {
      SCOPED_TRACE(absl::StrFormat("data file %d, %s", i, what));
      auto together = read_data_files_together({std::span<const u8>(*x), *archive, i, verdict},
                                               {std::span<const u8>(*y), *archive, i, verdict});
      const std::vector<u8>* sides[] = {x, y};
      for (int s = 0; s < 2; ++s) {
        auto alone = read_data_file(*sides[s], *archive, i, verdict);
        ASSERT_EQ(together[s].ok(), alone.ok()) << s << ": " << together[s].status() << " / " << alone.status();
        if (!alone.ok()) {
          EXPECT_EQ(together[s].status(), alone.status()) << s;
          continue;
        }
        EXPECT_TRUE(std::ranges::equal(together[s]->decoded.bytes, alone->decoded.bytes)) << s;
        EXPECT_EQ(together[s]->decoded.checked_blocks, alone->decoded.checked_blocks) << s;
        EXPECT_EQ(together[s]->decoded.compression, alone->decoded.compression) << s;
      }
    }
  }
}

TEST(ForgeReadPath, SkimmedWriterLeavesTheRunsOut) {
  gen::ForgeRecord record;
  (void)gen::generate_forge({Game::ac2, 2, 5, 4, 300}, &record);
  const std::vector<u8>& decoded = record.files[0].decoded;
  auto view = view_data_file(decoded);
  ASSERT_TRUE(view.ok()) << view.status();
  ASSERT_EQ(view->runs.size(), 1 + 2 * view->file.entries.size());
  auto write = [&](DataFile& file, std::vector<std::size_t>& cuts) {
    std::vector<u8> out;
    ByteWriter writer(out);
    writer.skim_from(view->runs, &cuts);
    file.serialize(writer, 0);
    EXPECT_TRUE(writer.runs_matched());
    return out;
  };
  std::vector<std::size_t> cuts;
  std::vector<u8> written = write(view->file, cuts);
  ASSERT_EQ(cuts.size(), view->runs.size());
  // The written bytes with each run put back at its cut are the data file.
  std::vector<u8> whole;
  std::size_t from = 0;
  for (std::size_t k = 0; k < cuts.size(); ++k) {
    whole.insert(whole.end(), written.begin() + from, written.begin() + cuts[k]);
    whole.insert(whole.end(), view->runs[k].begin(), view->runs[k].end());
    from = cuts[k];
  }
  whole.insert(whole.end(), written.begin() + from, written.end());
  EXPECT_EQ(whole, decoded);
  EXPECT_LT(written.size(), decoded.size() / 10) << "the bodies are left out";
  // A field changed shows where it lies, the bodies are not copied for it.
  view->file.entries[0].resource_type ^= 1;
  std::vector<std::size_t> cuts2;
  std::vector<u8> changed = write(view->file, cuts2);
  EXPECT_NE(changed, written);
  // Too few runs for the structure: the writer says so.
  std::vector<u8> out;
  ByteWriter writer(out);
  writer.skim_from(std::span(view->runs).first(1));
  view->file.serialize(writer, 0);
  EXPECT_FALSE(writer.runs_matched());
}

// The verify of an archive and of its extracted data files still finds what differs: a body byte of a
// plain data file changed where it carves, and a stored table byte of the archive.
TEST(ForgeReadPath, VerifyOfViewsStillFindsDifferences) {
  test::TempDir dir;
  std::string path = dir.path("a.forge");
  auto r = test::run_cli({"gen", "--forge", "--game", "ac2", "--datafiles", "3", "--visuals", "20", "--seed", "8",
                          "--block-size", "500", "-o", path});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run_cli({"verify", "--no-json", "--game", "ac2", path});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("3 of 3 data files identical"));
  r = test::run_cli({"extract", path, "-o", dir.path("x"), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* name : {"DataFile_000", "DataFile_001", "DataFile_002"}) {
    r = test::run_cli({"verify", dir.path("x") + "/" + name + ".data"});
    EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
    EXPECT_THAT(r.out, HasSubstr("ac2 data file")) << r.out;
    EXPECT_THAT(r.out, HasSubstr(": identical")) << r.out;
  }
  // A plain data file of the archive that holds the compression magic in a body does not read.
  std::vector<u8> bytes = test::read_file(path);
  auto archive = read_archive(bytes);
  ASSERT_TRUE(archive.ok());
  const DataFileAt& plain = archive->files[2];
  const u64 at = plain.stored_offset() + plain.index.size / 2;
  std::memcpy(bytes.data() + at, &BlockSet::kMagic, sizeof BlockSet::kMagic);
  test::write_file(dir.path("magic.forge"), bytes);
  r = test::run_cli({"verify", "--no-json", "--game", "ac2", dir.path("magic.forge")});
  EXPECT_EQ(r.exit_code, 2) << r.out << r.err;
  EXPECT_THAT(r.out,
              HasSubstr(absl::StrFormat("DataFile_002 (0xddec84db): 14984 bytes stored (plain), 0 decompressed, 0 "
                                        "entries, 0 objects carved, 0 bytes opaque, 0 near misses: DOES NOT "
                                        "READ: offset 0x%x: a plain data file",
                                        at)))
      << r.out;
}

// `--game auto` judges a data file on its bodies, on windows spread over them when they are large: an sws
// data file of bodies larger than the windows' 2 MiB in all reads as sws, and its archive too.
TEST(ForgeReadPath, AutoJudgesADataFileOnItsBodies) {
  test::TempDir dir;
  std::string path = dir.path("s.forge");
  auto r = test::run_cli(
      {"gen", "--forge", "--game", "sws", "--datafiles", "3", "--visuals", "10000", "--seed", "4", "-o", path, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = test::run_cli({"extract", path, "-o", dir.path("x"), "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string data = dir.path("x") + "/DataFile_002.data";
  ASSERT_GT(test::read_file(data).size(), std::size_t{2} << 20);
  r = test::run_cli({"verify", "--no-json", data});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("sws data file")) << r.out;
  r = test::run_cli({"verify", "--no-json", path});
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr(", sws: tables identical")) << r.out;
}

// `patch` by /objects/KEY finds the data file by the id's bytes and confirms by carving: the same archive
// as the patch by /datafiles/NAME/objects/KEY, and bytes that are not an object's id name no object.
TEST(ForgeReadPath, PatchByKeyFindsTheDataFileByItsBytes) {
  test::TempDir dir;
  std::string path = dir.path("a.forge");
  auto r = test::run_cli({"gen", "--forge", "--game", "ac2", "--datafiles", "4", "--visuals", "30", "--seed", "9",
                          "--block-size", "700", "-o", path, "-q"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<u8> bytes = test::read_file(path);
  auto archive = read_archive(bytes);
  ASSERT_TRUE(archive.ok());
  ArchiveLevels levels(bytes, *archive, Game::ac2);
  auto level = levels.level(1);
  ASSERT_TRUE(level.ok()) << level.status();
  auto piece = std::find_if((*level)->pieces.rbegin(), (*level)->pieces.rend(),
                            [](const Piece& p) { return p.is_object() && !p.repeated_id; });
  ASSERT_NE(piece, (*level)->pieces.rend());
  const std::string key = object_key(*piece, Game::ac2);
  auto patch = [&](const std::string& pointer, const std::string& out) {
    std::string text = absl::StrFormat(R"([{"op":"replace","path":"%s/managed","value":1}])", pointer);
    std::string file = dir.path(out + ".json");
    test::write_file(file, std::span(reinterpret_cast<const u8*>(text.data()), text.size()));
    return test::run_cli({"patch", path, file, "-o", dir.path(out), "-q"});
  };
  r = patch("/objects/" + key, "by-key.forge");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  r = patch("/datafiles/" + levels.name(1) + "/objects/" + key, "by-name.forge");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(test::read_file(dir.path("by-key.forge")), test::read_file(dir.path("by-name.forge")));
  EXPECT_NE(test::read_file(dir.path("by-key.forge")), bytes);
  // The first 8 bytes of the data file's decompressed bytes (its entry table) are there, but no object's id.
  auto data = levels.bytes_of(1);
  ASSERT_TRUE(data.ok());
  u64 not_an_id = 0;
  std::memcpy(&not_an_id, data->data(), sizeof not_an_id);
  const std::string bogus = absl::StrFormat("0x%016x", not_an_id);
  r = patch("/objects/" + bogus, "bogus.forge");
  EXPECT_EQ(r.exit_code, 2) << r.err;
  EXPECT_THAT(r.err, HasSubstr(absl::StrFormat("no object with key \"%s\" in any data file of the archive", bogus)));
}

}  // namespace
}  // namespace anvil::forge

namespace anvil::forge {
namespace {

// What LevelSet::holding gives, read one by one (the base class's loop) and on several threads (the
// archive's): the same data files, and, when some do not read, the error of the first in index order.
absl::StatusOr<std::vector<std::size_t>> holding_in(std::span<const u8> bytes, std::span<const u8> needle,
                                                    const std::vector<bool>* among, unsigned threads) {
  auto archive = read_archive(bytes);
  if (!archive.ok()) return archive.status();
  ArchiveLevels set(bytes, *archive, Game::ac2);
  if (threads == 0) return set.LevelSet::holding(needle, among, 1);
  auto found = set.holding(needle, among, threads);
  // Those found stay read: carving them reads nothing again.
  if (found.ok()) {
    for (std::size_t i : *found) EXPECT_TRUE(set.level(i).ok());
  }
  return found;
}

void expect_same_holding(const absl::StatusOr<std::vector<std::size_t>>& want,
                         const absl::StatusOr<std::vector<std::size_t>>& got, const std::string& what) {
  ASSERT_EQ(got.ok(), want.ok()) << what << ": " << got.status() << " / " << want.status();
  if (want.ok())
    EXPECT_EQ(*got, *want) << what;
  else
    EXPECT_EQ(got.status().message(), want.status().message()) << what;
}

TEST(ForgeReadPath, HoldingOnSeveralThreadsIsHoldingOneByOne) {
  std::vector<u8> bytes = gen::generate_forge({Game::ac2, 6, 6, 3, 512});
  auto archive = read_archive(bytes);
  ASSERT_TRUE(archive.ok());
  ArchiveLevels levels(bytes, *archive, Game::ac2);
  std::vector<std::vector<u8>> needles{std::vector<u8>(8, 0xEE)};  // in no data file
  for (std::size_t d = 0; d < levels.size(); ++d) {
    auto level = levels.level(d);
    ASSERT_TRUE(level.ok()) << level.status();
    for (const Piece& p : (*level)->pieces)
      if (p.is_object()) {
        std::vector<u8> id(8);
        std::memcpy(id.data(), &p.id, 8);
        needles.push_back(id);
        break;
      }
  }
  std::vector<bool> odd(levels.size());
  for (std::size_t d = 0; d < odd.size(); ++d) odd[d] = d % 2 == 1;
  std::size_t found_somewhere = 0;
  for (const auto& needle : needles)
    for (const std::vector<bool>* among :
         {static_cast<const std::vector<bool>*>(nullptr), static_cast<const std::vector<bool>*>(&odd)}) {
      auto want = holding_in(bytes, needle, among, 0);
      ASSERT_TRUE(want.ok()) << want.status();
      found_somewhere += !want->empty();
      for (unsigned threads : {1u, 2u, 5u})
        expect_same_holding(want, holding_in(bytes, needle, among, threads), "clean");
    }
  EXPECT_GE(found_somewhere, levels.size());

  // Damaged: a byte of a data file's last stored bytes turned over, in one data file and in two.
  std::size_t errors = 0;
  for (std::size_t d = 0; d + 1 < archive->files.size(); ++d) {
    for (std::size_t also : {d, d + 1}) {
      std::vector<u8> damaged = bytes;
      for (std::size_t k : {d, also}) {
        const auto& index = archive->files[k].index;
        damaged[archive->files[k].stored_offset() + index.size - 5] ^= 0x5A;
      }
      auto want = holding_in(damaged, needles[1], nullptr, 0);
      errors += !want.ok();
      for (unsigned threads : {2u, 5u})
        expect_same_holding(want, holding_in(damaged, needles[1], nullptr, threads),
                            absl::StrFormat("data files %d and %d damaged", d, also));
    }
  }
  EXPECT_GT(errors, 0u);
}

// A data file about to be read is not released by the vote (its pages would only be read in again): each
// data file's stored range is handed to the release once, by the vote or, for those read next, once read.
TEST(ForgeReadPath, ADataFileReadNextIsReleasedOnceReadNotByTheVote) {
  std::vector<u8> bytes = gen::generate_forge({Game::ac2, 6, 6, 3, 512});
  auto archive = read_archive(bytes);
  ASSERT_TRUE(archive.ok());
  const std::vector<std::size_t> read_next{1, 4};
  std::multiset<std::size_t> all;
  for (std::size_t d = 0; d < archive->files.size(); ++d) all.insert(archive->files[d].stored_offset());
  auto released_by = [&](auto&& call) {
    Archive copy = *archive;  // not voted yet
    ArchiveLevels levels(bytes, copy, Game::ac2);
    std::mutex mutex;
    std::multiset<std::size_t> released;
    levels.release_read_with([&](std::size_t offset, std::size_t) {
      std::lock_guard lock(mutex);
      released.insert(offset);
    });
    call(levels);
    return released;
  };
  std::multiset<std::size_t> others = all;
  for (std::size_t d : read_next) others.erase(others.find(archive->files[d].stored_offset()));
  EXPECT_EQ(released_by([&](ArchiveLevels& l) { l.checksums(read_next); }), others);
  EXPECT_EQ(released_by([&](ArchiveLevels& l) { ASSERT_TRUE(l.signature_ids(read_next, 2).ok()); }), all);
  const std::vector<u8> nowhere(8, 0xEE);
  EXPECT_EQ(released_by([&](ArchiveLevels& l) { ASSERT_TRUE(l.holding(nowhere, nullptr, 2).ok()); }), all);
  EXPECT_EQ(released_by([&](ArchiveLevels& l) { l.checksums(); }), all);
}

}  // namespace
}  // namespace anvil::forge

namespace anvil::forge {
namespace {

// gen writes each entry's data_size as FORGE.md 5 reads it (the resource's header, with flag 1's unknown
// bytes and records, and its body), in every version and layout: layout detection decides on the first
// layout that reads, with no second decompression.
TEST(ForgeReadPath, GeneratedDataSizesAgreeInTheirLayout) {
  for (u32 version : {25u, 26u, 27u})
    for (u8 layout : plausible_layouts(version)) {
      std::vector<u8> bytes = gen::generate_forge({Game::ac2, 4, 3, 5, 512, version, layout});
      auto archive = read_archive(bytes, nullptr, layout);
      ASSERT_TRUE(archive.ok()) << archive.status();
      std::size_t flagged = 0;
      for (std::size_t d = 0; d < archive->files.size(); ++d) {
        auto read = read_data_file(bytes, *archive, d, ChecksumVerdict{});
        ASSERT_TRUE(read.ok()) << read.status();
        auto view = view_data_file(read->decoded.bytes, archive->variant());
        ASSERT_TRUE(view.ok()) << view.status();
        for (const Entry& e : view->file.entries) flagged += e.flag == 1;
        EXPECT_TRUE(data_sizes_agree(*view))
            << "version " << version << ", layout " << int{layout} << ", data file " << d;
      }
      EXPECT_GT(flagged, 0u) << "no entry with flag 1: the test would not see the records";
    }
}

}  // namespace
}  // namespace anvil::forge
